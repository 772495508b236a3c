/**
 * Canon (issue 27): the words a world holds its GM to — secret markers not yet revealed, things the
 * world does not have — folded and matched the same way in the browser (the editor) and on the server
 * (the guard on the GM's words).
 */
export { fold, foldChar, FoldedText } from './fold';
export { TermMatcher, isWordChar, TERM_KINDS, type CanonTerm, type CanonHit, type TermKind, type StreamVerdict } from './matcher';
export { StreamCheck, type StreamStep } from './stream';
export { canonTerms, type Anachronism, type CanonSecret, type CanonSource } from './terms';
