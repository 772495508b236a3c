/**
 * Images for the stage: durable generation jobs for the orders committed turns placed, the providers
 * behind one interface (offline placeholders by default, the OpenAI images API or a compatible
 * server, ComfyUI, AUTOMATIC1111 and its forks; whatever they send is cleaned like an upload),
 * storage behind one interface (local files by default, loaded only when used; or an S3-compatible
 * bucket), serving headers, and the hand-made "regenerate" order metered by the budget guard.
 */
export { ImageRunner, IMAGE_RESERVATION_TTL_MS, type ImageRunnerDeps } from './runner';
export { IMAGE_RETRY_MAX_MS, jobRetryPolicy, IMAGE_FAILED_TEXT, imageUrl, type ImageJobPolicy } from './jobs';
export { type ImageProvider, type ImageRequest, type GeneratedImage } from './provider';
export { OfflineImageProvider, placeBackdropSvg, silhouetteSvg } from './offline';
export { OpenAIImageProvider, type OpenAIImagesOptions } from './openai';
export { ComfyUiImageProvider, type ComfyUiOptions } from './comfyui';
export { A1111ImageProvider, type A1111Options } from './a1111';
export { createImageProvider, createImageStore } from './create';
export { isImageKey, imageKey, contentTypeOfKey, type ImageStore, type StoredImage } from './store';
export { S3ImageStore, type S3StoreOptions } from './s3';
export { storedImageResponse, SVG_CONTENT_SECURITY_POLICY } from './serve';
export { regenerateImage, RegenerateRequestSchema } from './regenerate';
export { ImageProviderError, ImageStoreError, ImageJobError, RegenerationLimitError } from './errors';
export { cleanUploadedImage, ImageUploadError, UPLOAD_LIMITS, type CleanImage } from './upload';
export { checkUploadedAudio, AudioUploadError, AUDIO_UPLOAD_LIMITS, type AudioContentType } from './audio-upload';
export { cleanGeneratedImage } from './generated';
