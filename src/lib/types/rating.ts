import * as v from 'valibot';

/** A preset's content rating: `mature` is hidden in the gallery unless the viewer opted in (and the operator allows it). */
export const PRESET_RATINGS = ['general', 'mature'] as const;
export type PresetRating = (typeof PRESET_RATINGS)[number];
export const PresetRatingSchema = v.picklist(PRESET_RATINGS, 'rating must be general or mature');
