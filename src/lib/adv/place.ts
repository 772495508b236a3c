/**
 * Kinds of place, for the stage's drawn backdrop while a place has no generated background yet:
 * a room, a street, open country, or the outdoors at night each get a backdrop of their own, so
 * the player can tell a scene change even before its image arrives.
 */
export const PLACE_KINDS = ['interior', 'street', 'field', 'night'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** When nothing in a place's name or description says what it is. */
export const DEFAULT_PLACE_KIND: PlaceKind = 'field';
