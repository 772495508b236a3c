/** Official world: sword-and-sorcery fantasy, in English. Written natively, not translated word for word. */
import type { WorldPresetInput } from '../schema';

const premise = `Vesca is a walled port of thieves, priests and salt merchants on the shore of the \
Bitter Sea, a sea too salty for fish and too still for honest sailors. The city lives on black \
salt: dug from the cliffs, sold across the world, and packed into the old ward-stones that ring its \
walls.

You are Tarn, a sellsword out of the Ash Steppe, with a notched blade, a debt to the Grey Hands and \
a bed on credit at the Crooked Lantern. This month people have been vanishing from the Rookery, the \
slum under the sea wall. Nobody heard them scream. Some say they were seen walking toward the water \
in the middle of the night, barefoot, eyes shut.

Sorcery is real here, and rare, and it always takes its price. Steel is cheaper. Silver is better. \
Stay alive, pay what you owe, and find out what is calling the sleepers to the sea.`;

const setting = `## Overview

Vesca is a free city ruled by a council of salt merchants. It stands on the eastern shore of the \
Bitter Sea, between the Ash Steppe to the north and the drowned ruins of old Ysmar to the south. It \
is an age of bronze, iron and sail. Kings are far away; here, what matters is who holds the salt, \
the gates and the debts.

## Geography

### Vesca

A city of forty thousand souls packed inside a double wall of grey stone. The streets climb from \
the harbour to Temple Hill. Sea fog rolls in most nights and leaves a white crust of salt on every \
sill.

#### The Salt Quay

The harbour. Black salt is loaded onto galleys in tarred crates under the eyes of Council \
tally-clerks. Warehouses, rope-walks, dockside taverns. Under the oldest piers, the sea wall is \
pierced by sluices from the time of Ysmar that nobody maintains.

#### The Lantern Market

The great square at the heart of the city, lit all night by hanging oil lanterns, paid for by a \
lantern tax. Spice, cloth, slaves from the south (legal, and despised by many), fortune-tellers, \
knife-sellers.

#### Temple Hill

White houses and the Temple of the Pale Mother, a domed sanctuary of salt-white marble. The Council \
House stands across the square from it, and the two buildings have been glaring at each other for \
three hundred years.

#### The Rookery

The slum wedged between the sea wall and the Salt Quay: stacked timber houses, rope bridges between \
rooftops, rain barrels, rats. The Grey Hands keep order here, after a fashion. The vanishings began \
here.

#### The North Gate

The main land gate, facing the Ash Steppe road. A squat double tower with a bronze portcullis. \
Caravans queue here at dawn; the gate guard is Council militia and can be bribed.

#### The ward-stones

Seven standing stones of dark basalt set into the city walls, each with a hollow packed with black \
salt, renewed every spring by the Temple. Vescans touch them for luck. Children dare each other to \
lick them.

### The Bitter Sea

A still, heavy, salt-choked inland sea. Nothing lives in it but pale weed and brine shrimp. A \
swimmer floats like a cork and comes out with burning eyes. Sailors cross it to reach the southern \
kingdoms, and never at night if they can help it.

### The Ash Steppe

Grey grassland to the north, dusted with ash from the old fire-mountains. The horse clans live there. Wind, hawks, long silences, short wars.

### The Drowned Coast

South of Vesca the cliffs break into the ruins of Ysmar, an empire of sorcerer-kings that sank into \
the sea a thousand years ago. Broken towers stand in the shallows. Treasure hunters go there; some \
come back.

## Factions

### The Salt Council

Twelve merchant houses who own the salt cliffs and rule the city. They keep a militia, collect the \
gate tolls and the lantern tax, and argue endlessly. Lady Ilvane Corso is the Council's magistrate \
this year, the one who signs warrants and hangings. The Council is rich in salt and short of coin: \
a long war at sea against southern pirates has emptied its treasury.

### The Temple of the Pale Mother

The city's old faith. The Pale Mother is the goddess of salt, tides and the dead; her priests wear \
white and bless the ward-stones each spring. They run the only hospital and the only school. \
Brother Casimir is one of the few priests who still walks the Rookery.

### The Grey Hands

The thieves' guild: pickpockets, fences, smugglers, moneylenders. They pay the Council not to look \
too closely, and keep the Rookery quiet in exchange. They lend money at one part in ten per week, \
and they collect.

### The Ash Clans

Horse nomads of the steppe who trade horses, hides and mercenaries for salt and iron. Proud, \
feud-bound, and fond of clear oaths. An exile of the clans is a person without kin.

### The Tower of Lamps

Not a faction so much as a rumour: the sorcerers of Vesca, few in number, said to meet in a \
lightless tower on the Drowned Coast. People lower their voices when they name it.

## Sorcery and Faith

### What sorcery is

Sorcery is the bending of the world by will and old words. It is real and it is rare: perhaps a \
dozen people in Vesca can work it, and most hide it. There are no schools, no spellbooks for sale, \
no magic shops.

### The price

Every working takes something from the sorcerer: warmth, blood, years, sleep or memories. Small \
workings cost a shiver or a nosebleed; great ones cost a name, a face, a decade. A sorcerer who \
does not pay is paid for by someone nearby. Show the price every time.

### Black salt

Black salt dulls sorcery and unsettles spirits. A ring of it can hold a haunt; a pinch in the mouth \
breaks a charm. Black salt is also expensive, heavy and taxed, which is why the poor use grey salt \
and hope.

### Miracles

Priests pray, and sometimes something answers: a fever breaks, a tide turns. Nobody can command a \
miracle. There is no healing by laying on of hands, no raising of the dead.

### Monsters

The world is human. The peoples of other tales do not live here. What is not human is rare and uncanny: \
things from the drowned ruins, haunts, beasts of the steppe grown wrong. Meeting one should feel \
like meeting the end of the world.

## Technology and Everyday Things

### What exists

Bronze and iron weapons, mail and leather armour, crossbows and horse bows. Oared galleys and \
single-masted sailing ships. Oil lamps, tallow candles, parchment and ink, wax tablets, hand-copied \
books. Water clocks in the Temple, bells for the hours. Herbal medicine, bone-setting, wine to \
clean wounds.

### What does not exist

Missiles are arrows, crossbow bolts, sling stones and thrown spears. Books are copied by hand. \
The hours are kept by water and bells, and light comes from flame. No potions of healing on sale, \
no resurrection, no teleporting. Coin and debt only. If something is not listed as existing, assume \
it does not, or is rare and foreign.

## Daily Life

### Money

Coins are the copper bit, the silver mark (twenty bits) and the gold crown (twenty marks). A bowl \
of fish stew and a cup of wine: 3 bits. A night at the Crooked Lantern: 1 mark. A good sword: 15 \
marks. A bribe at the North Gate: 2 marks, or 5 at night.

### Food and drink

Salt fish, flatbread, goat cheese, olives, dates from the south, thin red wine, steppe mare's milk for the brave.

### Law

The Council's militia keeps the walls and the market; the Grey Hands keep the Rookery. Theft is \
punished by branding, murder by hanging at the North Gate. A warrant from the magistrate can enter \
any house except the Temple.

### Time

The year has twelve months of thirty days. The current year is the 412th of the Council. It is the \
month of Ebbing: cold fog, short days, the season when the salt crust is thickest.

## Glossary

- **Vesca**: the salt city, the setting of play.
- **Black salt**: the city's wealth; dulls sorcery and unsettles spirits.
- **Ward-stones**: seven basalt stones in the walls, packed with black salt.
- **The Pale Mother**: goddess of salt, tides and the dead.
- **The Grey Hands**: thieves' guild and moneylenders of the Rookery.
- **The Rookery**: the slum under the sea wall.
- **The Crooked Lantern**: Mirela's tavern, at the edge of the Rookery.
- **Ysmar**: the drowned empire of sorcerer-kings to the south.
- **Ebbing**: the foggy winter month.
- **Mark**: a silver coin; twenty copper bits.`;

const pc = `## Who you are

**Tarn**, twenty-eight, a sellsword out of the Ash Steppe. (Change the name and anything else \
before play if you like; tell the GM.) You were cast out of your clan for breaking an oath you \
still think was right to break. You came to Vesca two years ago with a horse and sold the horse \
within the month.

## Abilities

Roll two six-sided dice and add the ability:

- **Blade** +2: fighting, with steel or without.
- **Grit** +1: enduring pain, cold, fear, drink.
- **Wits** +1: noticing, lying, bargaining, reading people.
- **Stealth** +1: sneaking, climbing, picking a pocket.
- **Lore** +0: old history, the gods, sorcery, the ruins.

## How checks work

When the outcome is uncertain and something is at stake, the GM asks for a roll: 2d6 + ability.

- **10 or more**: you do it, cleanly.
- **7 to 9**: you do it, at a cost or with a complication.
- **6 or less**: it goes wrong, and the GM says how.

## Health

**Wounds**: 10 hit points. A dagger cut costs 1 to 3, a sword blow 3 to 6. At 0 you are dying. Rest and a healer bring back 1 or 2 a day.

## Gear

- A steppe sabre with a notched edge
- A long knife
- A boiled-leather jerkin
- A wool cloak, a flint and steel, a wineskin
- A black-salt charm on a leather cord (a gift from your mother)
- **6 silver marks**

## Ties

- You owe the **Grey Hands** 30 silver marks, due at the new moon, eleven days from now.
- **Mirela**, who keeps the Crooked Lantern, gives you a bed on credit and work when she has it.
- **Sefa**, a young thief of the Grey Hands, once cut your purse and then brought it back. You never learned why.`;

export const swordAndSorceryEn = {
	id: 'sword-and-sorcery',
	language: 'en',
	title: 'Vesca of the Black Salt',
	tagline: 'A sellsword, a city of thieves and priests, and sorcery that always takes its price.',
	documents: {
		premise: { title: 'Premise', body: premise },
		setting: { title: 'World Setting', body: setting },
		pc: { title: 'PC Sheet', body: pc }
	},
	gmNotesTitle: 'GM Notes',
	npcs: [
		{
			name: 'Mirela',
			role: 'Keeper of the Crooked Lantern tavern',
			appearance:
				'A broad-shouldered woman in her fifties with iron-grey hair in one thick braid over her shoulder, a ' +
				'weathered tanned face with deep laugh lines and sharp grey eyes. Sleeves rolled to the elbow, an ' +
				'old shiny burn scar on her left forearm. Rust-red wool dress under a dark green apron, a ring of ' +
				'brass keys at her belt, a bar towel over one shoulder.',
			personality:
				'Mirela Ost. Warm, blunt, tired. Talks while working, never stops wiping something. Calls everyone ' +
				'"love" and means it about half the time. Fences small goods for the Grey Hands and pays her dues on ' +
				'time. She is fond of Tarn and of Sefa, and will feed either of them for free while pretending to ' +
				'keep a tab. She steers every conversation away from sorcery, and goes quiet and cold if pressed ' +
				'about her past or her burn scar. Wants: her tavern safe, the vanishings stopped, no questions about ' +
				'who she used to be.'
		},
		{
			name: 'Sefa',
			role: 'Young thief of the Grey Hands',
			appearance:
				'A small, wiry girl of about fifteen with unevenly hacked short black hair, brown skin and quick ' +
				'dark eyes. A single gold hoop earring in her left ear. An oversized patched brown coat with the ' +
				'sleeves rolled up several times, a faded blue scarf, loose grey trousers, feet wrapped in rags ' +
				'instead of shoes. A thin knife sheathed at the small of her back.',
			personality:
				'Fast-talking, prickly, proud, funny when she forgets to be scared. Lies by reflex and then tells ' +
				'the truth sideways. Her older brother Deo, a rope-maker, vanished six nights ago; she is frantic ' +
				'and refuses to show it. She knows every rooftop and drain of the Rookery and every Grey Hand by ' +
				'nickname. Will not go to the militia or the Temple: "they only come to count the bodies." Wants: ' +
				'Deo back. Will trade anything she has for help, including secrets of the guild.'
		},
		{
			name: 'Casimir',
			role: 'Priest of the Pale Mother who walks the Rookery',
			appearance:
				'A tall, gaunt man in his forties with a shaven head marked by thin blue tattooed lines like salt ' +
				'cracks running from his crown to his temples. Hollow cheeks, pale blue eyes, long bony hands. Plain ' +
				'white linen robes gone grey at the hem, a pale grey stole, worn sandals, a small silver censer on a ' +
				'chain at his hip.',
			personality:
				'Brother Casimir. Soft-spoken, patient, kind to the poor, and careful with every word. Quotes ' +
				'scripture when he wants to avoid a question. Runs a soup kitchen in the Rookery and has been ' +
				'counting the missing himself. He is frightened, and hides it behind calm. He asks sharp questions ' +
				'about the ward-stones and the salt, and gives vague answers about why. Wants: the stones kept full, ' +
				'the Temple kept clean of scandal, and the city kept asleep to what he knows.'
		},
		{
			name: 'Ilvane',
			role: 'Lady Ilvane Corso, magistrate of the Salt Council',
			appearance:
				'A tall, elegant woman in her late thirties with silver-blonde hair pinned high in an intricate ' +
				'coil, pale skin, arched dark brows and cool green eyes. A long deep-blue velvet coat with a high ' +
				'collar and buttons of polished black salt crystal, black kid gloves, a thin gold chain of office ' +
				'across her chest. Carries a slender cane of white wood topped with silver.',
			personality:
				'Lady Ilvane Corso. Polished, amused, ruthless in the name of order. Speaks in complete sentences ' +
				'and never raises her voice. Believes in ledgers, not gods; calls the Temple "a very old habit". She ' +
				'is trying to keep the Council solvent through a war it cannot afford, and will use a capable ' +
				'sellsword, then discard them. Offers money readily and warrants when money fails. Wants: the ' +
				"vanishings hushed before they frighten the merchants, and nobody looking closely at the Council's " +
				'books.'
		}
	],
	gmBehaviour: `Run Vesca as sword-and-sorcery in the vein of Howard and Leiber: gritty, sensual, \
witty and dangerous. Heroes are clever and tough, not chosen; the world is indifferent and the city \
is hungry.

- Tone: grime and beauty together. Smoke, salt, wine, lamplight, fog. Keep the prose concrete and \
sensory; no modern idiom, no game jargon in the characters' mouths.
- Sorcery is rare, uncanny and always paid for. Whenever anyone works it, show the price. Never \
offer magic items for sale or spells as tools. Black salt dulls sorcery.
- The world is human, and an age of bronze, iron and sail: what it lacks is listed at the end of \
these instructions (see also "What does not exist" in the world setting). If the player reaches for \
something the world lacks, answer in the world: people do not know the word.
- Money and debt matter. Track silver and the Grey Hands debt in the state; prices come from the world setting.
- Violence is quick and costly. Wounds stay until healed. Use the checks from the PC sheet (2d6 + \
ability, with roll_dice) when the outcome is uncertain and something is at stake, say what is at \
stake before rolling, and honour the result, including the partial successes.
- Pacing: two to five paragraphs per reply. Every scene ends on something the player can act on. \
Let NPCs talk in their own voices (their notes are in the GM notes) and want things of their own.
- Mystery: the truths of this world are in the story DB. Reveal them only through what the player \
finds, hears or pieces together. When the player investigates, give at least one real clue per \
scene; never let an NPC blurt a secret, and never confirm a guess the evidence does not support.`,
	plot: {
		title: 'The sleepers and the salt',
		body: `Act 1 — The vanishings. Sefa asks for help finding her brother Deo. In the Rookery: \
sleepers walk toward the Salt Quay at night; the ward-stone in the Rookery sea wall has been \
scraped half empty; grey dust of black salt on the cobbles; a Council tally-clerk's token dropped \
near the stone. Casimir is counting the missing and is frightened.

Act 2 — Follow the salt. Council clerks scrape the ward-stones at night and carry the salt to a \
galley at the Salt Quay. Lady Ilvane hires Tarn to "find the thieves", meaning to find who else is \
watching. The Grey Hands want their cut. Casimir begs Tarn to refill the stones and will not say \
why. The more salt leaves, the more sleepers walk.

Act 3 — The sea calls. Under the oldest pier the sleepers go down into the flooded city below \
Vesca. What waits there can be sealed again with black salt and the old words — at a price — or \
bargained with, or fled. Endings are open: the player decides what Vesca is worth.`
	},
	secrets: [
		{
			key: 'the-drowned-king',
			title: 'What sleeps under the Bitter Sea',
			body:
				'Vael-Amon, the last sorcerer-king of Ysmar, did not die when his empire sank. He is sealed beneath ' +
				'the Bitter Sea; the sea is salt-choked because the black salt is the seal itself, and the seven ' +
				'ward-stones of Vesca are its keystones on land. As the stones weaken he dreams outward, and the ' +
				'weakest-willed sleepers of the Rookery answer him.',
			markers: ['Vael-Amon', 'sorcerer-king of Ysmar did not die']
		},
		{
			key: 'the-temple-keeps-the-seal',
			title: 'What the Temple really is',
			body:
				'The Temple of the Pale Mother was founded by the survivors of Ysmar as the keepers of the seal. ' +
				'"The Pale Mother" is their name for the seal; no goddess answers the prayers, and the spring ' +
				'blessing of the ward-stones is maintenance, not worship. Senior priests, Casimir among them, know; ' +
				'the faithful do not. Casimir fears that telling the truth would break the Temple and with it the ' +
				'only people who still refill the stones.',
			markers: ['no goddess answers', 'keepers of the seal']
		},
		{
			key: 'corso-sells-the-ward-salt',
			title: 'Who is stealing the salt',
			body:
				'Lady Ilvane Corso has Council clerks scrape black salt from the ward-stones at night and sells it ' +
				'to the Mirrored Fleet, southern pirate-merchants who pay in gold for salt that is not counted by ' +
				"the tally. The gold pays the Council's war debt. She thinks the ward-stones are superstition and " +
				'does not know what she is unsealing.',
			markers: ['Mirrored Fleet']
		},
		{
			key: 'the-sleepers-live',
			title: 'Where the vanished go',
			body:
				'The vanished are alive. Asleep, they walk down the Drowned Stair, an Ysmari sluice-stair under the ' +
				'oldest pier of the Salt Quay, into the flooded undercity beneath Vesca, where they chip at the old ' +
				'seal from below. Deo is among them, thin and dreaming. Woken with black salt on the tongue, a ' +
				'sleeper remembers nothing but cold.',
			markers: ['Drowned Stair']
		},
		{
			key: 'mirela-was-a-sorcerer',
			title: 'Who Mirela used to be',
			body:
				'Mirela Ost was once a sorcerer of the Tower of Lamps. Twenty years ago she helped renew the seal ' +
				"and paid for it with the memory of her son's face; the burn on her arm is from the same night. She " +
				'still knows the sealing words. Speaking them again would cost her life, or the life of whoever ' +
				'speaks them in her place.',
			markers: ['sealing words', "son's face"]
		}
	],
	opening: {
		scene: {
			name: 'The Crooked Lantern',
			description:
				'The low, smoky common room of a harbour tavern at night. Blackened ceiling beams, a big iron ' +
				'lantern with a bent frame hanging over the bar, oil lamps on long scarred tables, a stone hearth ' +
				'with a driftwood fire. Small windows crusted white with salt, fog pressing grey against them. ' +
				'Barrels, hanging strings of dried fish, a steep wooden stair to the rooms above. Warm orange light ' +
				'against cold blue night outside.'
		},
		present: ['Mirela', 'Sefa'],
		situation:
			'Late evening in the Crooked Lantern. Tarn is nursing a cheap wine and counting the days to the Grey ' +
			"Hands' deadline. Mirela is behind the bar. Sefa comes in out of the fog, soaked and furious, and " +
			'sits down across from Tarn without asking: her brother Deo has been gone six nights, the third to ' +
			'vanish from her street this month, and a neighbour saw him walking toward the sea in his sleep. She ' +
			'offers what she has (a little silver and a favour owed by the guild) for help finding him. Mirela, ' +
			"wiping the same cup over and over, adds that she will forgive Tarn's tab if Tarn looks into it. " +
			"Begin in the room; give the player the noise, the fog and Sefa's face, and end on the choice.",
		state: {
			location: 'The Crooked Lantern, Vesca',
			time: 'Evening, 19th of Ebbing, year 412 of the Council',
			hp: 10,
			hpMax: 10,
			silver: 6,
			inventory: [
				'steppe sabre (notched)',
				'long knife',
				'leather jerkin',
				'wool cloak',
				'flint and steel',
				'wineskin',
				'black-salt charm'
			],
			debts: { greyHands: '30 silver marks, due at the new moon (in 11 days)' },
			_labels: { silver: 'Silver marks', greyHands: 'The Grey Hands' }
		}
	},
	anachronisms: [
		{
			terms: ['gunpowder', 'gun', 'firearm', 'pistol', 'musket', 'rifle', 'cannon'],
			note: 'Missiles are arrows, crossbow bolts, sling stones and thrown spears.'
		},
		{ terms: ['printing press', 'printed book', 'printer'], note: 'Books are copied by hand on parchment.' },
		{ terms: ['electricity', 'electric', 'light bulb'], note: 'Light comes from oil lamps, tallow candles and fire.' },
		{
			terms: ['mechanical clock', 'pocket watch', 'wristwatch', 'clockwork'],
			note: 'The Temple keeps the hours with water clocks and bells.'
		},
		{ terms: ['eyeglasses', 'telescope', 'spyglass'], note: 'Eyes are what there is.' },
		{ terms: ['paper money', 'banknote'], note: 'Coin and debt only.' },
		{ terms: ['steam engine'], note: 'Oars, sails, beasts and backs.' },
		{
			terms: ['elf', 'elves', 'dwarf', 'dwarves', 'orc'],
			note: 'The world is human; what is not human is rare, uncanny and has no tidy name.'
		}
	]
} satisfies WorldPresetInput;
