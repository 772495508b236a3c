/**
 * Creator pages: a user's public worlds, newest first, by their user name (`/creators/<name>`). The
 * same shelf code and rules as the gallery (listed presets only, mature ones only for those who may
 * see them); an unknown or suspended account is "not found".
 */
import { and, eq, isNull } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import type { GalleryPageDto } from '../../types/presets';
import { galleryPage, type GalleryRequest } from './shelves';

const { users } = controlSchema;
/** User names as the sign-up form allows them, with room: anything longer is no user. */
const MAX_NAME_CHARS = 64;

export interface CreatorPage {
	name: string;
	page: GalleryPageDto;
}

/** The creator's page of public worlds, or null when there is no such (active) account. */
export async function creatorPage(
	db: ControlDrizzle,
	name: string,
	req: Omit<GalleryRequest, 'authorId' | 'shelf' | 'tag' | 'rating' | 'q' | 'language'>
): Promise<CreatorPage | null> {
	if (name.length === 0 || name.length > MAX_NAME_CHARS) return null;
	const [user] = await db
		.select({ id: users.id, name: users.name })
		.from(users)
		.where(and(eq(users.name, name), isNull(users.suspendedAt)))
		.limit(1);
	if (!user) return null;
	const page = await galleryPage(db, { ...req, shelf: 'new', tag: '', rating: '', q: '', language: '', authorId: user.id });
	return { name: user.name, page };
}
