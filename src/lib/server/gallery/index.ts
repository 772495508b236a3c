/**
 * The gallery: public presets shelved as New, Popular and Favourites, searchable by words of their
 * title and tagline (any script, Japanese substrings included), filterable by language, paged by
 * cursor; a creator's public worlds (creators.ts). Reads the control database only.
 */
export { galleryPage, GalleryQuerySchema, GalleryError, type GalleryQuery, type GalleryRequest } from './shelves';
export { creatorPage, type CreatorPage } from './creators';
