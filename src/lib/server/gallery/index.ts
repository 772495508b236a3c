/**
 * The gallery: public presets shelved as New, Popular and Favourites, searchable by words of their
 * title and tagline (any script, Japanese substrings included), filterable by language, paged by
 * cursor. Reads the control database only.
 */
export { galleryPage, GalleryQuerySchema, GalleryError, type GalleryQuery, type GalleryRequest } from './shelves';
