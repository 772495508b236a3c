/** Fake local image generators speaking their real HTTP wire formats, for the providers' real `fetch` to talk to. */
export { startFakeComfyUi, defaultWorkflow, spriteWorkflow, type FakeComfyUi, type ComfyStep } from './comfyui';
export { startFakeA1111, type FakeA1111, type A1111Step } from './a1111';
export { makePng, readPng, type PngSpec } from './png';
