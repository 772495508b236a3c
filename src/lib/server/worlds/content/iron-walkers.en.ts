/**
 * Official world: a walking-machine war chronicle in a world that split from ours in 1916, in English.
 * The world setting says plainly what technology exists and what does not, because this is the world
 * where modern things leak in: the GM is told to recall that section before bringing in any device.
 */
import type { WorldPresetInput } from '../schema';

const premise = `November 1919. The Great War is in its sixth winter, and it has not ended.

In March 1916 the British chose legs instead of tracks. Since then riveted steel machines the \
height of a house have walked across the mud of Flanders: four-legged landships with a crew of \
seven, driven by petrol engines and steam, balanced by gyroscopes, commanded by shouts and bell \
signals over the roar of the engine. The Germans built their own within a year. The trenches are \
still there. So is the wire, and the gas, and the rain.

You are Second Lieutenant Sam Hollis of the Royal Walking Corps, commander of the walker Old Meg. \
Three nights ago Walker No. 17 went down in No Man's Land below Hill 60 and its crew did not come \
back. At dawn your company commander wants to see you.

This is a world of valves and telegraph wire, and of nothing beyond them: what has not been \
invented by 1919 will not be invented in this story.`;

const setting = `## Overview

This world split from ours in March 1916, when the British Landships Committee chose engineer Hugh \
Carrow's four-legged walking machine over the tracked design (the one our history knew as the \
tank). Walkers first went into battle on the Somme in September 1916. The Germans captured one at \
Flers, copied it, and fielded their own "Schreitwagen" in 1917. Walkers broke the trench deadlock \
in some places and became the targets of a whole new kind of warfare in others.

Russia left the war after its revolution in 1917, as in our history. The United States entered the \
same year. The German spring offensive of 1918, led by walkers, came within forty miles of Paris \
before it was stopped. The armistice talks at Spa in the spring of 1919 collapsed. Now, in November \
1919, every army is exhausted, conscripting eighteen-year-olds, and fighting on.

## Geography

### The Ypres Salient

The campaign is set in Flanders, Belgium, in the bulge of the British line around the ruined town \
of Ypres. Flat, low, waterlogged country: clay and shell holes full of green water, shattered \
woods, drowned farms, concrete German pillboxes. Fog most mornings, rain most days, frost at night \
from November.

### Hill 60

A low mound of railway spoil south-east of Ypres, fought over since 1915 and honeycombed with mine \
tunnels. The Germans hold the crest. Below it, No Man's Land is a field of overlapping craters, \
wire and wrecked walkers.

### Zillebeke and the walker park

Behind the British line, near the drained lake at Zillebeke, C Company parks its walkers under \
camouflage netting on a bed of railway sleepers and duckboards, with a tarpaulin workshop, a fuel \
dump and a canteen in a half-roofed barn.

### Behind the German lines

Beyond Hill 60 the Germans hold the Belgian towns of Menin and Roulers. Aerial photographs show \
railways, depots and camps. Belgian civilians still live there under occupation.

## Factions and Armies

### The Royal Walking Corps

The British walker arm, formed in 1917 from the Heavy Section of the Machine Gun Corps. Organised \
like the rest of the army: crews, sections of three or four walkers, companies, battalions. A \
walker is commanded by a subaltern (a second lieutenant or lieutenant) and driven by a sergeant or \
corporal. Since 1918, shortage of men has opened the Corps to women as drivers and mechanics; they \
are enlisted, paid less, and in the thick of it.

### The German Schreiterkorps

The German walker arm. Its line machine is the A7W Schreitwagen, four-legged, twelve-man, slower \
and more heavily armed than the British walkers. Rumour speaks of a six-legged steam "Landkreuzer", \
a land cruiser the size of a church.

### The French and the Belgians

The French "chars marcheurs" hold the line to the south. What is left of the Belgian army holds the \
coast. Belgian civilians behind the German lines are occupied, hungry and watched; some of them \
carry messages for the Allies.

### The factories

British walkers are built by Carrow & Sons at Lincoln and under licence in Birmingham and Glasgow. \
The firm is rich, patriotic and close to the Ministry of Munitions. Its engineers come out to the \
front to watch their machines fail.

## The Walkers

### Old Meg

Old Meg is a Mark V walker, No. 9 Section, C Company, 4th Battalion, Royal Walking Corps.

- Four jointed legs under a riveted steel hull, about 21 feet (6.5 m) to the roof.
- A Carrow 150-horsepower six-cylinder petrol engine, driving the legs through clutches, chains and hydraulic rams.
- Armour: half an inch of steel at the front, a third of an inch on the sides. Stops rifle bullets and shrapnel; not field guns, not armour-piercing rounds.
- Two 6-pounder guns in side sponsons, four Lewis machine guns.
- Crew of seven: commander, driver, two gunners, two leg-men (brakesmen on the leg clutches), one engine-man.
- Speed: three miles an hour on firm ground, one in mud. Fuel for about forty miles.

### How a walker is driven

A walker is driven, not piloted. The driver steers with levers and sets the gait with a **gait \
drum**: a steel cylinder studded with pins, like a music-box drum, that opens and closes the leg \
valves in sequence. Changing gait means swapping drums: walk, wade, climb. Old Meg uses the new \
Pattern 4 drum this winter. With the drum out, the leg-men work the legs by hand, slowly. A \
gyroscope the size of a cartwheel keeps the hull level.

### Inside a walker

Inside it is dark, deafening and hot: the engine shares the hull with the crew. Exhaust fumes make \
men faint on long runs. The commander gives orders by hand signals, a speaking tube to the driver, \
and a bell telegraph (like a ship's engine-room telegraph) to the leg-men. Crews wear leather \
helmets and chain-mail splash masks against flakes of metal knocked off the inside of the armour.

### Other machines

- **Scout walkers** ("Herons"): two-legged, crew of two, gyroscope-balanced, fast and fragile, one machine gun.
- **Supply walkers**: unarmoured four-legged carriers for ammunition and fuel.
- **A7W Schreitwagen** (German): four legs, twelve men, a 57 mm gun and six machine guns; diesel-engined since 1919.

### Fighting walkers

Walkers are killed by field guns firing over open sights, by trench mortars, by mines under their \
feet, by leg-traps (deep pits covered with boards), by the German 13 mm anti-walker rifle that can \
punch a leg joint, and most of all by mud. A walker that falls on its side often cannot get up \
again.

## Technology: What Exists and What Does Not

This is 1919 in a world that kept our history's level of technology. Before anything else appears in play, check it against this list.

### What exists

- **Power**: steam engines (coal and oil fired), petrol engines, diesel engines (new, mostly \
German), electric dynamos and lead-acid batteries, hydraulic rams, gyroscopes.
- **Materials**: riveted steel plate, cast iron, brass, canvas, timber, leather, Bakelite, celluloid, rubber.
- **Communications**: field telephones on wire; the telegraph; runners; carrier pigeons; signal \
lamps, flags and coloured flares; **wireless telegraphy** (Morse code only) with spark sets and \
valve (vacuum-tube) sets. Wireless sets are heavy crates carried in command walkers, at battalion \
headquarters and in some aircraft; they send Morse, not voices, and every message is coded and \
decoded by hand with code books.
- **In the air**: wood-and-fabric biplanes and triplanes for scouting, artillery spotting, bombing \
and aerial photography; observation balloons; Zeppelin airships.
- **Weapons**: bolt-action rifles, machine guns, hand grenades, trench mortars, field guns and \
howitzers, flamethrowers, poison gas (chlorine, phosgene, mustard), barbed wire, mines, anti-walker \
rifles.
- **Medicine**: field dressings, antiseptic solutions, morphine, X-ray machines at base hospitals, \
stretchers, horse and motor ambulances, gas masks. Surgery is fast and brutal; infection kills many.
- **Everyday**: railways, motor lorries, motorcycles, horses and mules (still most of the \
transport), typewriters, cameras, silent films, gramophones, wristwatches, electric torches, slide \
rules, mechanical adding machines, cigarettes, tinned food.

### What does not exist

- Electronics stop at the valve. Machines here do exactly what their pins, cams and levers make them do.
- Walker crews cannot talk to each other or to headquarters by voice: they shout, ring bells and \
send runners. Experimental valve telephony exists only in a few laboratories and headquarters, and \
does not work reliably.
- Aircraft are wood and fabric with piston engines; the only rockets are signal flares.
- Nobody has split the atom.
- Navigation is by map, compass, landmarks and the stars.
- Infection is fought with antiseptic, surgery and luck.
- Ranks and units are those of 1919: private, lance-corporal, corporal, sergeant, second \
lieutenant, lieutenant, captain, major, colonel; sections, companies, battalions, brigades.

If something is not on the "exists" list, it does not exist, or it is a secret prototype that should never appear in play.

## Daily Life at the Front

### Routine

Crews spend more time repairing their walker than fighting in it: greasing joints, replacing leg \
pins, cleaning plugs, patching armour. Stand-to at dawn and dusk. Rum ration in the morning in \
winter. Letters home are read by an officer before they go.

### Food

Bully beef (tinned corned beef), hard biscuits, plum-and-apple jam, Maconochie stew, sweet tea \
brewed on a Primus stove or on the walker's exhaust. Bread when the railway runs.

### Money and rank

Soldiers are paid in shillings a day; officers buy their own kit. An officer can requisition stores \
with a signed chit; a sergeant can usually find them without one.

### Time

The date is early November 1919. Sunrise about seven, dark by half past four. Fog in the mornings, frost at night.

## Glossary

- **Walker** (officially "walking landship"): a legged armoured fighting machine.
- **Gait drum**: the pinned steel cylinder that sequences a walker's legs.
- **Leg-men**: the two crewmen on the leg clutches and brakes.
- **Bell telegraph**: the dial-and-bell signal from the commander to the crew.
- **Sparks**: army slang for a wireless operator.
- **No Man's Land**: the ground between the front lines.
- **Schreitwagen**: a German walker.
- **Landkreuzer**: "land cruiser", the rumoured German six-legged steam walker.
- **Stand-to**: everyone armed and on the fire-step at dawn and dusk.
- **Very light**: a flare fired from a pistol to light up No Man's Land.
- **Blighty**: home (England); a "Blighty wound" is one bad enough to be sent home with.`;

const pc = `## Who you are

**Second Lieutenant Sam Hollis**, twenty-three, commander of the walker Old Meg. (Change the name \
and anything else before play if you like; tell the GM.) A grammar-school boy from Leicester \
commissioned from the ranks after two years as a gunner in walkers. You have been out since 1917, \
which is a long time. You are good at your job and you know exactly how lucky you have been.

## Abilities

Roll two six-sided dice and add the ability:

- **Command** +2: giving orders under fire, keeping a crew together, arguing with superiors.
- **Machines** +1: understanding walkers, engines, guns and wireless sets.
- **Nerve** +1: keeping your head under shelling, gas, pain or fear.
- **Fieldcraft** +1: moving unseen, reading ground, map and compass, finding your way in the dark.
- **Languages** +0: French and a little German and Flemish.

## How checks work

When the outcome is uncertain and something is at stake, the GM asks for a roll: 2d6 + ability.

- **10 or more**: it works.
- **7 to 9**: it works, at a cost or with a complication.
- **6 or less**: it goes wrong, and the GM says how.

## Health

**Wounds**: 10 points. Shrapnel costs 1 to 4, a bullet 3 to 6, a shell close by can cost \
everything. At 0 you are dying. Gas and exhaust fumes cost wounds too. A field dressing stops \
bleeding; only a hospital heals.

## Old Meg

- **Hull**: 12 points. Rifle fire does nothing, a field gun 4 to 8, a mine can break a leg.
- **Legs**: four, all sound. A broken leg means limping at half speed; two broken means Meg cannot walk.
- **Gait drums**: walk, wade, climb (Pattern 4), plus one spare walk drum.
- **Ammunition**: 6-pounder shells 120, Lewis gun drums 60.
- **Fuel**: full, about forty miles.

## Crew

- **Sergeant Ada Finch**, driver.
- Privates **Hobbs** and **Dunn**, gunners.
- Lance-Corporal **Moss** and Private **Kerr**, leg-men.
- Private **Lowe**, engine-man.

## Kit

- Webley revolver and 24 rounds
- Trench coat, leather helmet, splash mask, box respirator (gas mask)
- Map case with trench maps of the Salient, prismatic compass, wristwatch, electric torch, whistle
- Field glasses
- A cigarette case with a dent from a bullet, and a photograph of your sister Nell

## Ties

- **Captain Ashby**, your company commander, picked you for Old Meg and trusts you more than he trusts himself.
- **Ada Finch** has driven Meg since the day she left the Lincoln works. Meg is hers; you only command it.
- **"Sparks" Reed**, the company's wireless operator, brings you gossip before it becomes orders.`;

export const ironWalkersEn = {
	id: 'iron-walkers',
	language: 'en',
	title: 'Iron Walkers: The War That Did Not End',
	tagline: '1919. The Great War is in its sixth winter, and riveted steel giants walk the mud of Flanders.',
	documents: {
		premise: { title: 'Premise', body: premise },
		setting: { title: 'World Setting', body: setting },
		pc: { title: 'PC Sheet', body: pc }
	},
	gmNotesTitle: 'GM Notes',
	npcs: [
		{
			name: 'Ada',
			role: 'Sergeant Ada Finch, driver of Old Meg',
			appearance:
				'A short, sturdy young woman in her mid-twenties with auburn hair cropped close to the neck, a ' +
				'freckled, wind-reddened face and a smear of engine grease on one cheek. Oil-stained khaki overalls ' +
				"under a sleeveless brown leather jerkin, sergeant's three stripes on the sleeve, heavy hobnailed " +
				'boots, a brown leather crash helmet with round driving goggles pushed up on her forehead, a spanner ' +
				'in her belt.',
			personality:
				'From Lincoln, where she riveted walker hulls at the Carrow works before she enlisted to drive one. ' +
				'Blunt, dry, unimpressed by officers and devoted to Meg, whom she talks to like a cart-horse. Fixes ' +
				'anything with wire and swearing. Superstitious about gait drums: she taps each one twice before ' +
				'fitting it. Calls the PC "sir" when others are listening and "Mr Hollis" when they are not. She has ' +
				'noticed something wrong with the new Pattern 4 drums and sent a report up the line; nobody ' +
				'answered, and it is eating at her. Wants: her crew alive, Meg on her feet, someone to take her ' +
				'seriously.'
		},
		{
			name: 'Sparks',
			role: 'Lance-Corporal Tobias Reed, wireless operator of C Company',
			appearance:
				'A gangly young man of nineteen with big ears, a long thin neck, untidy straw-coloured hair and a ' +
				"hopeful face. A khaki tunic a size too large with a lance-corporal's single stripe and the " +
				"blue-and-white signaller's armband, a pencil behind one ear, heavy brass-and-leather headphones " +
				'hanging round his neck, a notebook bulging from his breast pocket, puttees wound unevenly.',
			personality:
				'Talks fast and too much, loves his valve set like a pet and explains it to anyone who stands still. ' +
				'Listens to German wireless traffic at night for practice, and can tell German operators apart by ' +
				'their "fist" (the rhythm of their Morse). Collects gossip from every signals office and shares it. ' +
				'Eager to please, braver than he looks, terrified of gas. He has noticed that the big German machine ' +
				'in the aerial photographs never sends or receives anything, and he is not sure whether that ' +
				'matters. Wants: to be useful, to be noticed by the officers, to go home and build wireless sets.'
		},
		{
			name: 'Ashby',
			role: 'Captain Lionel Ashby, commanding C Company',
			appearance:
				'A tall, lean man in his early thirties with fair hair going grey at the temples, a neat clipped ' +
				'moustache and tired pale blue eyes with dark circles under them. A belted khaki trench coat over ' +
				"service dress with three captain's stars on each cuff, a Sam Browne belt with a holster, a peaked " +
				'cap, a row of medal ribbons, polished brown boots. He leans on a blackthorn walking stick for a ' +
				'stiff left leg.',
			personality:
				'Courteous, dry, quietly funny, and very tired. A regular officer who has lost two companies since ' +
				"1916 and remembers every name. Protects his crews from Battalion's worst ideas when he can and " +
				'carries out the rest. Hides a tremor in his right hand by keeping it in his pocket or on his stick. ' +
				'Trusts Hollis and says so rarely. He has been given orders he has not shared, and will avoid the ' +
				"PC's eyes when the recovery of No. 17 comes up. Wants: to bring his people through the winter, to " +
				'do his duty, and not to have to choose between the two.'
		},
		{
			name: 'Marthe',
			role: 'Marthe Verhaegen, Belgian liaison and interpreter',
			appearance:
				'A tall, thin Belgian woman of about thirty with dark brown hair pinned in a low bun, a pale narrow ' +
				'face, straight dark brows and round steel-rimmed spectacles. A long black wool coat buttoned to the ' +
				'throat, a dark red knitted scarf, a tricolour liaison armband in black, yellow and red on her left ' +
				'arm, sturdy laced boots splashed with mud, a leather satchel across her body.',
			personality:
				'A schoolteacher from Ypres before the war, now attached to the British as interpreter and guide for ' +
				'the Flemish countryside. Precise, reserved, quietly fierce; speaks English with careful grammar, ' +
				'and switches to Flemish to swear. Knows every farm track and drainage ditch of the Salient, and ' +
				'which ones are mined. Polite to the British, loyal to Belgium first. She asks more questions about ' +
				'the German lines than a guide needs to, and volunteers for every night crossing. Wants something ' +
				'behind the German lines that she does not name.'
		}
	],
	gmBehaviour: `Run this world as a grounded war chronicle of the First World War in an \
alternative 1919: mud, cold, machines and people, told with respect. The walkers are wonders of \
riveted steel, and they are also coffins; never make war glorious.

- Keep strictly to 1919 technology. This is the world where modern things leak in, so before \
bringing in any device, weapon, means of communication or medicine you are not sure of, recall \
"What exists and what does not" in the world setting and follow it; what this world lacks is listed \
at the end of these instructions. If the player asks for something that does not exist, the \
characters do not know what it is; answer in the world, without winking.
- Communication is slow and physical: runners, telephone wires that get cut, pigeons, flares, coded \
Morse on a heavy wireless set. Orders arrive late and out of date. Use it.
- Walkers are machines with moods: they overheat, throw leg pins, sink, fall. Describe the noise, \
the heat, the fumes, the bell signals. Track Old Meg's hull, legs, ammunition and fuel in the \
state, with the PC's wounds.
- Use the checks from the PC sheet (2d6 + ability, with roll_dice) when the outcome is uncertain \
and something is at stake; say the stakes first and honour the result. Shells, mines and mud do not \
care about heroes.
- The crew are people: give them names, habits, fears and letters from home. Casualties matter and \
are remembered. Ranks and forms of address are those of the British Army of 1919.
- Pacing: two to five paragraphs per reply, each ending with something the player can decide. Night \
operations are slow and tense; let silence and waiting count.
- The truths of this world are in the story DB. Reveal them only through evidence the player finds \
or hears. Give a real clue when the player investigates; never let an NPC explain a secret they \
would not tell.`,
	plot: {
		title: 'Walker No. 17',
		body: `Act 1 — The recovery. Captain Ashby orders Hollis to take Old Meg out tonight to \
recover Walker No. 17, or at least its gait drum and its code book, before the Germans do. Marthe \
will guide them along the old drainage ditches. In No Man's Land: fog, Very lights, a German \
listening post, wire. No. 17 lies on its side in a crater; its walk drum is split across the pins; \
the commander's code-book box is empty; signs the crew were taken alive (bandages, no bodies but \
one).

Act 2 — The lure. Battalion has aerial photographs of a German Landkreuzer behind Hill 60 and wants \
a walker attack across the crater field. Clues that something is wrong: no exhaust smoke in the \
photographs, no track of its feet, Sparks hears no wireless from it, Marthe's contacts say the \
Germans have been digging under the craters. Ada's worry about the drums grows as the frost \
hardens. Ashby carries an order he will not show.

Act 3 — What Hollis does. Options include: a raid to bring back No. 17's crew; proving the drums \
are faulty and taking it to someone who will listen; refusing, delaying or changing the attack on \
Hill 60; helping Marthe across the lines. The endings are open; no choice is safe.`
	},
	secrets: [
		{
			key: 'the-landkreuzer-is-a-decoy',
			title: 'The Landkreuzer behind Hill 60',
			body:
				'The Landkreuzer in the aerial photographs is a decoy of timber and painted canvas on a wooden ' +
				'frame, built by German sappers. It is there to draw a British walker attack across the crater field ' +
				'below Hill 60, where they have dug leg-traps and placed a buried gas mine. No real six-legged ' +
				'Landkreuzer has ever reached the front.',
			markers: ['decoy of timber', 'painted canvas', 'buried gas mine']
		},
		{
			key: 'the-pattern-4-drums-crack',
			title: 'Why No. 17 fell',
			body:
				'The new Pattern 4 gait drums from the Carrow works crack along the pin rows in hard frost, and a ' +
				'walker whose drum splits falls mid-stride. Carrow & Sons found this in their winter trials of 1918 ' +
				'and buried the trials report to keep the Ministry contract. No. 17 fell because its drum split. Old ' +
				"Meg carries the same drums, and Ada's report on a hairline crack in Meg's spare drum was filed away " +
				'unread at Battalion.',
			markers: ['winter trials', 'crack along the pin rows']
		},
		{
			key: 'pryce-is-alive',
			title: "No. 17's crew",
			body:
				"Lieutenant Gerald Pryce, No. 17's commander, and three of his crew are alive, prisoners in a " +
				'concrete German dugout behind Hill 60, waiting to be sent to the rear. Before he was taken, Pryce ' +
				"hid the code book inside No. 17's ammunition locker, under the shell racks. The Germans have not " +
				'found it.',
			markers: ['under the shell racks', 'prisoners in a concrete German dugout']
		},
		{
			key: 'ashbys-sealed-order',
			title: "Captain Ashby's order",
			body:
				'Ashby carries a sealed order from Battalion: if No. 17 cannot be brought back, it is to be blown up ' +
				'with guncotton charges where it lies, whatever it costs, so the Germans cannot study its drum. He ' +
				'has been told the crew are presumed dead. He has not told Hollis, and the order is tearing at him.',
			markers: ['sealed order', 'guncotton']
		},
		{
			key: 'marthe-and-the-roulers-works',
			title: 'What Marthe wants',
			body:
				'Marthe Verhaegen belongs to the Beguine network, a Belgian intelligence ring that watches German ' +
				'railways. Her brother Pieter, an engineer, is forced to work at the German walker works at Roulers, ' +
				'and he has copied drawings of the new diesel Schreitwagen. She means to get across the lines, reach ' +
				"him and bring him (and the drawings) out, and she will use Hollis's night crossing to do it.",
			markers: ['Beguine network', 'walker works at Roulers', 'Pieter']
		}
	],
	opening: {
		scene: {
			name: 'Zillebeke walker park',
			description:
				'A muddy First World War walker park at dawn in flat, foggy Flanders. Three huge four-legged riveted ' +
				'steel war machines stand under sagging camouflage netting on a bed of railway sleepers and ' +
				'duckboards, their hulls painted drab brown-green and streaked with rust and oil. A tarpaulin ' +
				'workshop with a glowing brazier, stacked fuel drums, a half-roofed brick barn, puddles reflecting a ' +
				'pale grey sky, bare shattered trees in the mist, coils of barbed wire.'
		},
		present: ['Ada', 'Ashby'],
		situation:
			'Dawn, 4 November 1919, the walker park at Zillebeke. Frost on the duckboards, fog on everything. ' +
			"Hollis has been called from the officers' dugout. Ada is under Old Meg's rear legs with a lamp, " +
			'cursing a leg pin; she has something she wants to say about the drums and keeps not saying it. ' +
			'Captain Ashby walks over with his stick and a map case and gives the order: No. 17 went down three ' +
			'nights ago in the craters below Hill 60; tonight Old Meg goes out to recover it, or its gait drum ' +
			'and code book, before the Germans do. Marthe will guide. Let the player ask questions; Ashby ' +
			'answers what he can and avoids the rest. End the scene with the preparations to choose (which drum, ' +
			'which crew, which route, who to ask).',
		state: {
			location: 'Zillebeke walker park, Ypres Salient',
			date: '4 November 1919',
			time: 'dawn, about 6:30',
			weather: 'fog, hard frost',
			hp: 10,
			hpMax: 10,
			oldMeg: {
				hull: 12,
				hullMax: 12,
				legs: 'four sound',
				gaitDrums: ['walk (Pattern 4)', 'wade (Pattern 4)', 'climb (Pattern 4)', 'spare walk'],
				shells: 120,
				lewisDrums: 60,
				fuel: 'full'
			},
			inventory: [
				'Webley revolver (24 rounds)',
				'trench coat',
				'leather helmet and splash mask',
				'box respirator',
				'trench maps',
				'prismatic compass',
				'wristwatch',
				'electric torch',
				'whistle',
				'field glasses',
				'dented cigarette case',
				'photograph of Nell'
			],
			_labels: {
				hp: 'HP',
				oldMeg: 'Old Meg',
				hull: 'Hull',
				legs: 'Legs',
				gaitDrums: 'Gait drums',
				shells: 'Shells',
				lewisDrums: 'Lewis drums',
				fuel: 'Fuel'
			}
		}
	},
	anachronisms: [
		{
			terms: ['smartphone', 'mobile phone', 'cell phone', 'cellphone'],
			note: 'Telephones are field sets and wall boxes on a wire, with a crank.'
		},
		{ terms: ['internet', 'email', 'e-mail', 'website', 'online'], note: 'News travels by telegraph, post and runner.' },
		{
			terms: ['television', 'TV', 'radio broadcast', 'radio station', 'tape recorder'],
			note: 'Wireless sends Morse code only, from heavy crates.'
		},
		{ terms: ['walkie-talkie', 'voice radio', 'radio headset', 'intercom'], note: 'Walker crews shout, ring bells and send runners.' },
		{
			terms: ['jet engine', 'jet aircraft', 'jet plane', 'jet fighter', 'helicopter', 'missile', 'rocket launcher'],
			note: 'Aircraft are wood-and-fabric biplanes and triplanes; the only rockets are signal flares.'
		},
		{ terms: ['nuclear', 'atomic bomb', 'atom bomb', 'A-bomb', 'reactor', 'radioactive'], note: 'Nobody has split the atom.' },
		{ terms: ['transistor', 'microchip', 'computer', 'electronic calculator', 'robot'], note: 'Electronics stop at the valve.' },
		{
			terms: ['radar', 'sonar', 'night vision', 'night-vision', 'thermal sight', 'laser', 'GPS', 'satellite'],
			note: 'Navigation is by map, compass, landmarks and stars; at night, by eye and field glasses.'
		},
		{ terms: ['penicillin', 'antibiotic', 'nylon'], note: 'Infection is fought with antiseptic, surgery and luck.' },
		{
			terms: ['special forces', 'mech pilot', 'callsign', 'HUD', 'lock-on'],
			note: 'Ranks, units and words are those of the British Army of 1919.'
		}
	]
} satisfies WorldPresetInput;
