/**
 * Images for the stage: durable generation jobs for the orders committed turns placed, the providers
 * behind one interface (offline placeholders by default, the OpenAI images API or a compatible
 * server), storage behind one interface (local files by default, loaded only when used; or an
 * S3-compatible bucket), serving headers, and the hand-made "regenerate" order metered by the budget
 * guard.
 */
export { ImageRunner, MANUAL_ORDER_PREFIX, IMAGE_RESERVATION_TTL_MS, type ImageRunnerDeps, type ImageBudget } from './runner';
export {
	MAX_IMAGE_ATTEMPTS,
	IMAGE_RETRY_BASE_MS,
	IMAGE_RETRY_MAX_MS,
	IMAGE_LEASE_MS,
	IMAGE_LEASE_RENEW_MS,
	IMAGE_JOBS_PER_SESSION,
	DEFAULT_IMAGE_JOB_POLICY,
	jobRetryPolicy,
	IMAGE_FAILED_TEXT,
	imageUrl,
	type ImageJob,
	type ImageJobPolicy
} from './jobs';
export {
	IMAGE_FORMATS,
	sniffRaster,
	type ImageProvider,
	type ImageRequest,
	type ImageKind,
	type GeneratedImage,
	type ImageContentType
} from './provider';
export { OfflineImageProvider, placeBackdropSvg, silhouetteSvg } from './offline';
export { OpenAIImageProvider, OPENAI_IMAGES_BASE_URL, IMAGE_REQUEST_TIMEOUT_MS, MAX_IMAGE_BYTES, type OpenAIImagesOptions } from './openai';
export { createImageProvider, createImageStore } from './create';
export { IMAGE_KEY_PATTERN, isImageKey, imageKey, type ImageStore, type StoredImage } from './store';
export { S3ImageStore, type S3StoreOptions } from './s3';
export { imageHeaders, imageResponse, storedImageResponse, IMAGE_CACHE_CONTROL, SVG_CONTENT_SECURITY_POLICY } from './serve';
export { regenerateImage, RegenerateRequestSchema, type RegenerateRequest, type RegenerateDeps } from './regenerate';
export { ImageProviderError, ImageStoreError, ImageJobError, RegenerationLimitError, type ImageJobErrorCode } from './errors';
