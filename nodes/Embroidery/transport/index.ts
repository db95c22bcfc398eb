export { credentialType, downloadSignedFile, embroideryApiRequest, normaliseBaseUrl } from './request';
export type { ApiRequest, DownloadedFile, EmbroideryApiRequest, EmbroideryContext, FileStream } from './request';
export { defaultRetryPolicy } from './retryPolicy';
export type { RetryPolicy } from './retryPolicy';
export * from './schemas';
export { nodeErrorOf } from './errors';
