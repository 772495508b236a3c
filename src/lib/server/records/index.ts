/**
 * Records: the seven kinds of truth a play session keeps. Every write takes the caller's
 * transaction (`SessionTx`) and updates the search sections in it; every read takes any executor
 * (`SessionExec`), so reads inside a turn's transaction see its staged writes. Knows nothing of LLMs.
 */
export * as state from './state';
export * as journal from './journal';
export * as memory from './memory';
export * as documents from './documents';
export * as summaries from './summaries';
export * as story from './story';
export * as log from './log';
export * as witnesses from './witnesses';
export { mergePatch, isJsonObject, isJsonValue, type JsonValue, type JsonObject } from './merge-patch';
export { chunkMarkdown, splitWindows, MAX_SECTION_CHARS, PATH_SEPARATOR } from './chunk';
export { importRecord, ImportLineSchema, type ImportLine } from './import';
export { RecordError, isRecordError } from './errors';
export { RECORD_KINDS, KIND_VISIBILITY, type RecordKind, type Visibility } from './kinds';
export { sectionHash } from './sections';
export { MAX_BODY_CHARS, MAX_NAME_CHARS } from './limits';
export { parseKeysLine, formatKeysLine, alwaysSectionsQuery, alwaysText, MAX_ALWAYS_CHARS, type KeysLine } from './lore';
