/** Validation rules shared by every schema that takes text from outside. */
export { withoutControlCharacters, hasControlCharacter, controlCharacterMessage } from './text';
export { said } from './messages';
