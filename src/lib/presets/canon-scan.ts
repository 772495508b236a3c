/**
 * What the guard would withhold in a world's own texts (issue 27), for the editor: the secret markers
 * found in what the player sees, and the words of things the world does not have found in any text the
 * game master reads. The GM repeats its world's words; where it would, the reply would be withdrawn,
 * so the author sees those false positives before players meet them. Same matcher as the server's guard.
 */
import { canonTerms, TermMatcher, type TermKind } from '../canon';
import { anachronismsFromText } from './anachronisms';
import { DOCUMENT_NAMES, leakInputOf, type PresetForm } from './form';

/** One text of a world: its form field, and whether the player reads it (as opposed to the GM alone). */
interface WorldText {
	readonly field: string;
	readonly text: string;
	readonly playerVisible: boolean;
}

/** A term found in a world's own text. */
export interface WouldFire {
	readonly field: string;
	readonly term: string;
	readonly kind: TermKind;
	/** The secret's key, or the thing's first word. */
	readonly source: string;
}

function worldTexts(form: PresetForm): WorldText[] {
	const seen = (field: string, text: string): WorldText => ({ field, text, playerVisible: true });
	const gm = (field: string, text: string): WorldText => ({ field, text, playerVisible: false });
	const texts = [seen('title', form.title), seen('tagline', form.tagline)];
	for (const name of DOCUMENT_NAMES) {
		const doc = form.documents[name];
		texts.push(seen(`documents.${name}.title`, doc.title), seen(`documents.${name}.body`, doc.body));
	}
	form.npcs.forEach((n, i) =>
		texts.push(
			seen(`npcs.${i}.name`, n.name),
			seen(`npcs.${i}.role`, n.role),
			seen(`npcs.${i}.appearance`, n.appearance),
			gm(`npcs.${i}.personality`, n.personality)
		)
	);
	texts.push(seen('opening.scene.name', form.opening.scene.name), seen('opening.scene.description', form.opening.scene.description));
	texts.push(seen('opening.state', form.opening.state), gm('opening.situation', form.opening.situation));
	texts.push(gm('gmBehaviour', form.gmBehaviour), gm('plot.title', form.plot.title), gm('plot.body', form.plot.body));
	form.secrets.forEach((s, i) => texts.push(gm(`secrets.${i}.title`, s.title), gm(`secrets.${i}.body`, s.body)));
	return texts;
}

/**
 * Every term the guard would withhold in the world's own texts: a secret's markers where the player
 * reads them (the GM's own texts hold its secrets, of course), a missing thing's words anywhere.
 */
export function wouldFire(form: PresetForm): WouldFire[] {
	const source = { secrets: leakInputOf(form).secrets, anachronisms: anachronismsFromText(form.anachronisms) };
	const terms = canonTerms(source);
	const all = new TermMatcher(terms);
	const missing = new TermMatcher(terms.filter((t) => t.kind === 'anachronism'));
	const out: WouldFire[] = [];
	const seen = new Set<string>();
	for (const { field, text, playerVisible } of worldTexts(form)) {
		for (const hit of (playerVisible ? all : missing).findAll(text)) {
			const key = `${field}\u0000${hit.term.text}`;
			if (seen.has(key)) continue;
			seen.add(key);
			out.push({ field, term: hit.term.text, kind: hit.term.kind, source: hit.term.source });
		}
	}
	return out;
}
