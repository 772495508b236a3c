/**
 * The play log's read model, and the play screen's reads: a page of the log with its stage (the
 * page load, a commit's catch-up, the backlog), the plain message page, the stage's images, and what
 * the page renders first. Routes call these; the turn engine and the records stay unaware of the screen.
 */
export { logPage, messagesPage, stageImages } from './log';
export { loadPlayView, PLAY_MESSAGE_WINDOW } from './view';
