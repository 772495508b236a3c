/**
 * The gallery: public presets shelved as New, Popular and Favourites, searchable by words of their
 * title and tagline (any script, Japanese substrings included), filterable by language, paged by
 * cursor. Reads the control database only.
 */
export {
	galleryPage,
	GalleryQuerySchema,
	GalleryError,
	GALLERY_SHELVES,
	GALLERY_PAGE_SIZE,
	MAX_GALLERY_PAGE_SIZE,
	encodeCursor,
	type GalleryQuery,
	type GalleryRequest
} from './shelves';
export { searchCondition, searchWords, SearchQuerySchema, MAX_QUERY_CHARS, MAX_QUERY_WORDS } from './search';
