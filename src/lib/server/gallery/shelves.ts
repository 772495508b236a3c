/**
 * The gallery's shelves, a page at a time:
 * - New: latest published first;
 * - Popular: most distinct players in the last 30 days, then most favourites (then newest);
 * - Favourites: the signed-in user's, latest favourited first (any preset they can still see).
 * The official presets lead New and Popular (first page, with their badge) unless a tag is asked for.
 * Filters: language, words (search.ts), a tag, a rating; worlds rated mature are left out unless the
 * request says the viewer may see them (presets' rating rule). Paging is by keyset
 * (an opaque cursor holding the last row's sort key), so a deep page costs what the first one does,
 * and each shelf walks an index made for its order (see the presets table's indexes).
 */
import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, type ControlDrizzle } from '../db';
import { getWorld, WORLD_IDS } from '../worlds';
import { LanguageSchema, type Language } from '../../types/settings';
import { coverUrl, refreshPopularity } from '../presets';
import { GALLERY_SHELVES, PRESET_RATINGS, type GalleryItemDto, type GalleryPageDto, type GalleryShelf } from '../../types/presets';
import { tagKey } from '../../presets/tags';
import { MAX_TAG_CHARS } from '../worlds';
import { searchCondition, SearchQuerySchema } from './search';
import { said } from '../validation';

const { presets, presetFavorites, presetCovers, presetTags, users } = controlSchema;

const GALLERY_PAGE_SIZE = 24;
/**
 * A tag on fewer presets than this is read from the tag index, its presets then sorted (a rare tag
 * would otherwise walk most of the shelf's index to fill a page); a more common one filters the
 * shelf's own index walk, which fills a page after a few hundred rows. Measured in docs/performance.md.
 */
const RARE_TAG_PRESETS = 500;
const MAX_GALLERY_PAGE_SIZE = 60;

export class GalleryError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'GalleryError';
	}
}

/** Messages follow the parse's language: the gallery page says what was wrong in the reader's, the API in English. */
export const GalleryQuerySchema = v.object({
	shelf: v.optional(v.picklist(GALLERY_SHELVES, said('gallery.error.shelf')), 'new'),
	language: v.optional(v.union([LanguageSchema, v.literal('')], said('gallery.error.language')), ''),
	q: v.optional(SearchQuerySchema, ''),
	/** One tag, matched whatever its case or width ('' for any). */
	tag: v.optional(
		v.pipe(
			v.string(said('gallery.error.tag', { max: MAX_TAG_CHARS })),
			v.transform(tagKey),
			v.maxLength(MAX_TAG_CHARS, said('gallery.error.tag', { max: MAX_TAG_CHARS })),
			v.regex(/^[^\p{Cc}]*$/u, said('gallery.error.tag', { max: MAX_TAG_CHARS }))
		),
		''
	),
	rating: v.optional(v.union([v.picklist(PRESET_RATINGS), v.literal('')], said('gallery.error.rating')), ''),
	cursor: v.optional(v.pipe(v.string(said('gallery.error.cursor')), v.maxLength(300, said('gallery.error.cursor'))), ''),
	limit: v.optional(
		v.pipe(
			v.string(said('gallery.error.limitWhole')),
			v.regex(/^\d{1,3}$/, said('gallery.error.limitWhole')),
			v.transform(Number),
			v.minValue(1, said('gallery.error.limitMin')),
			v.maxValue(MAX_GALLERY_PAGE_SIZE, said('gallery.error.limitMax', { max: MAX_GALLERY_PAGE_SIZE }))
		),
		String(GALLERY_PAGE_SIZE)
	)
});
export type GalleryQuery = v.InferOutput<typeof GalleryQuerySchema>;

export interface GalleryRequest extends GalleryQuery {
	/** The signed-in user: required for Favourites; shown nothing else differently. */
	viewerId?: string | undefined;
	/** Only this author's presets (their creator page); official presets are then left out. */
	authorId?: string | undefined;
	/** Whether worlds rated mature may be listed for this viewer (`matureShownTo`); false leaves them out whatever `rating` asks. */
	mature: boolean;
	/** The language official presets are shown in when no language filter is set. */
	displayLanguage: Language;
	now?: number;
}

// Keys: New (publishedAt, seq); Popular (players30d, favorites, publishedAt, seq); Favourites (favourited at, preset id).
const Int = v.pipe(v.number(), v.integer());
const CursorSchema = v.variant('s', [
	v.object({ s: v.literal('new'), k: v.tuple([Int, Int]) }),
	v.object({ s: v.literal('popular'), k: v.tuple([Int, Int, Int, Int]) }),
	v.object({ s: v.literal('favorites'), k: v.tuple([Int, v.pipe(v.string(), v.maxLength(64))]) })
]);
type Cursor = v.InferOutput<typeof CursorSchema>;

function encodeCursor(cursor: Cursor): string {
	return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(raw: string, shelf: GalleryShelf): Cursor | undefined {
	if (raw === '') return undefined;
	let data: unknown;
	try {
		data = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
	} catch {
		throw new GalleryError('cursor is not one this server gave out');
	}
	const parsed = v.safeParse(CursorSchema, data);
	if (!parsed.success || parsed.output.s !== shelf)
		throw new GalleryError('cursor is not one this server gave out (or belongs to another shelf)');
	return parsed.output;
}

const columns = {
	seq: presets.seq,
	id: presets.id,
	official: presets.official,
	language: presets.language,
	title: presets.title,
	tagline: presets.tagline,
	author: users.name,
	plays: presets.playersTotal,
	recentPlayers: presets.players30d,
	favorites: presets.favorites,
	publishedAt: presets.publishedAt,
	cover: presetCovers.image,
	rating: presets.rating
};

interface Row {
	seq: number;
	id: string;
	official: boolean;
	language: Language | null;
	title: string;
	tagline: string;
	author: string | null;
	plays: number;
	recentPlayers: number;
	favorites: number;
	publishedAt: number | null;
	cover: string | null;
	rating: 'general' | 'mature';
}

function item(row: Row, displayLanguage: Language, tags: ReadonlyMap<string, string[]>): GalleryItemDto {
	// Official presets are shown in the reader's (or the filter's) language, from the shipped content.
	const official = row.official ? getWorld(row.id, displayLanguage) : undefined;
	return {
		id: row.id,
		title: official?.title ?? row.title,
		tagline: official?.tagline ?? row.tagline,
		language: row.official ? null : row.language,
		author: row.author,
		plays: row.plays,
		favorites: row.favorites,
		official: row.official,
		recentPlayers: row.recentPlayers,
		coverUrl: coverUrl(row.id, row.cover),
		tags: tags.get(row.id) ?? [],
		rating: row.rating
	};
}

/** The tags of a page's presets, in one read. */
async function tagsOf(db: ControlDrizzle, rows: readonly Row[]): Promise<Map<string, string[]>> {
	const ids = rows.filter((r) => !r.official).map((r) => r.id);
	const found = new Map<string, string[]>();
	if (ids.length === 0) return found;
	const tagged = await db
		.select({ id: presetTags.presetId, tag: presetTags.tag })
		.from(presetTags)
		.where(inArray(presetTags.presetId, ids))
		.orderBy(presetTags.presetId, presetTags.tag);
	for (const { id, tag } of tagged) found.set(id, [...(found.get(id) ?? []), tag]);
	return found;
}

/** How many presets carry the tag (any visibility): a covering-index count. */
async function tagged(db: ControlDrizzle, tag: string): Promise<number> {
	const [row] = await db.select({ n: count() }).from(presetTags).where(eq(presetTags.tag, tag));
	return row?.n ?? 0;
}

/** The filters every shelf applies besides language and words: tag, rating, and mature only when allowed. */
function filters(req: Pick<GalleryRequest, 'tag' | 'rating' | 'mature' | 'authorId'>): (SQL | undefined)[] {
	return [
		req.authorId === undefined ? undefined : eq(presets.authorId, req.authorId),
		req.tag === ''
			? undefined
			: sql`${presets.id} IN (SELECT ${presetTags.presetId} FROM ${presetTags} WHERE ${presetTags.tag} = ${req.tag})`,
		req.rating === '' ? undefined : eq(presets.rating, req.rating),
		req.mature ? undefined : eq(presets.rating, 'general')
	];
}

async function pageOf(db: ControlDrizzle, rows: Row[], display: Language): Promise<GalleryItemDto[]> {
	const tags = await tagsOf(db, rows);
	return rows.map((r) => item(r, display, tags));
}

function base(db: ControlDrizzle) {
	return db
		.select(columns)
		.from(presets)
		.leftJoin(users, eq(users.id, presets.authorId))
		.leftJoin(presetCovers, eq(presetCovers.presetId, presets.id));
}

/** The official presets matching the search, in catalogue order (they have every language). */
async function officials(db: ControlDrizzle, req: GalleryRequest): Promise<Row[]> {
	// Official worlds have no tags or author and are rated general.
	if (req.tag !== '' || req.rating === 'mature' || req.authorId !== undefined) return [];
	// By id (the unique index): a scan for `official` would read every preset.
	const rows = await base(db).where(and(inArray(presets.id, [...WORLD_IDS]), eq(presets.official, true), searchCondition(req.q)));
	return WORLD_IDS.flatMap((id) => rows.filter((r) => r.id === id));
}

export async function galleryPage(db: ControlDrizzle, req: GalleryRequest): Promise<GalleryPageDto> {
	const cursor = decodeCursor(req.cursor, req.shelf);
	const display: Language = req.language === '' ? req.displayLanguage : req.language;
	const search = searchCondition(req.q);
	const limit = req.limit;

	if (req.shelf === 'favorites') {
		if (req.viewerId === undefined) return { items: [], nextCursor: null };
		const k = cursor?.s === 'favorites' ? cursor.k : undefined;
		const viewer = req.viewerId;
		const rows = await db
			.select({ ...columns, favoritedAt: presetFavorites.createdAt })
			.from(presetFavorites)
			.innerJoin(presets, eq(presets.id, presetFavorites.presetId))
			.leftJoin(users, eq(users.id, presets.authorId))
			.leftJoin(presetCovers, eq(presetCovers.presetId, presets.id))
			.where(
				and(
					eq(presetFavorites.userId, viewer),
					// Still visible to the user: the same rule as opening the preset (presets/access.ts).
					or(
						eq(presets.official, true),
						eq(presets.authorId, viewer),
						and(sql`${presets.visibility} <> 'private'`, sql`${presets.currentVersion} IS NOT NULL`, isNull(presets.moderatedAt))
					),
					req.language === '' ? undefined : or(eq(presets.language, req.language), eq(presets.official, true)),
					search,
					...filters(req),
					k ? sql`(${presetFavorites.createdAt}, ${presetFavorites.presetId}) < (${k[0]}, ${k[1]})` : undefined
				)
			)
			.orderBy(desc(presetFavorites.createdAt), desc(presetFavorites.presetId))
			.limit(limit + 1);
		const page = rows.slice(0, limit);
		const last = page[page.length - 1];
		return {
			items: await pageOf(db, page, display),
			nextCursor: rows.length > limit && last ? encodeCursor({ s: 'favorites', k: [last.favoritedAt, last.id] }) : null
		};
	}

	if (req.shelf === 'popular') await refreshPopularity(db, req.now);
	const few = req.authorId !== undefined || (req.tag !== '' && (await tagged(db, req.tag)) < RARE_TAG_PRESETS);
	const where: (SQL | undefined)[] = [
		// `+listed` keeps SQLite off the shelf's index, so it starts from the few presets with the rare tag, or the author's.
		few ? sql`+${presets.listed} = 1` : eq(presets.listed, true),
		req.language === '' ? undefined : eq(presets.language, req.language),
		search,
		...filters(req)
	];
	let order: SQL[];
	if (req.shelf === 'new') {
		const k = cursor?.s === 'new' ? cursor.k : undefined;
		if (k) where.push(sql`(${presets.publishedAt}, ${presets.seq}) < (${k[0]}, ${k[1]})`);
		order = [desc(presets.publishedAt), desc(presets.seq)];
	} else {
		const k = cursor?.s === 'popular' ? cursor.k : undefined;
		if (k)
			where.push(
				sql`(${presets.players30d}, ${presets.favorites}, ${presets.publishedAt}, ${presets.seq}) < (${k[0]}, ${k[1]}, ${k[2]}, ${k[3]})`
			);
		order = [desc(presets.players30d), desc(presets.favorites), desc(presets.publishedAt), desc(presets.seq)];
	}
	const rows = await base(db)
		.where(and(...where))
		.orderBy(...order)
		.limit(limit + 1);
	const page = rows.slice(0, limit);
	const last = page[page.length - 1];
	let nextCursor: string | null = null;
	if (rows.length > limit && last) {
		const published = last.publishedAt ?? 0;
		nextCursor = encodeCursor(
			req.shelf === 'new'
				? { s: 'new', k: [published, last.seq] }
				: { s: 'popular', k: [last.recentPlayers, last.favorites, published, last.seq] }
		);
	}
	const lead = cursor === undefined ? await officials(db, req) : [];
	return { items: await pageOf(db, [...lead, ...page], display), nextCursor };
}
