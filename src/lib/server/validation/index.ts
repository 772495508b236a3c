/** Validation rules shared by every schema that takes text from outside. */
export { withoutControlCharacters, hasControlCharacter, jsonHasControlCharacter, controlCharacterMessage } from './text';
export { said } from './messages';
