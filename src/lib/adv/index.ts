/**
 * The ADV (visual-novel) stage, as pure logic shared by server and browser: the reply's speaker tags,
 * the stage each cue produces, backlog replay and the text reveal. No Node APIs, no server imports.
 */
export * from './cue';
export * from './script';
export * from './stage';
export * from './replay';
export * from './reveal';
export * from './place';
export * from './placeholders';
export * from './moods';
export * from './sound';
