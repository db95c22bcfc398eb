export {
	cancelSignalOf,
	credentialIdOf,
	credentialsOf,
	credentialType,
	normaliseBaseUrl,
	withCancelSignal,
} from './context';
export type { EmbroideryContext, FileStream } from './context';
export { downloadSignedFile } from './download';
export { fileNameFromDisposition, fileNameFromUrl, safeFileName } from './fileNames';
export type { DownloadedFile } from './download';
export { mayAnswerLater, nodeErrorOf, retryAfterMsOf, tagItem } from './errors';
export { embroideryApiRequest } from './request';
export type { ApiRequest, EmbroideryApiRequest } from './request';
export { defaultRetryPolicy } from './retryPolicy';
export type { RetryPolicy } from './retryPolicy';
export {
	carryOnWithCreated,
	earlierTryAdvice,
	hintAdvice,
	jobAdvice,
	oneFilePerRequestAdvice,
	parameterAdvice,
	signedUrlAdvice,
	sourceUrlAdvice,
	triggerAdvice,
} from './nextSteps';
export { routes } from './routes';
export type { Ability, RequestAction, Route } from './routes';
export {
	jobIdInLinkPattern,
	jobIdPattern,
	jobKey,
	jobLinkPattern,
	parseJobLink,
	ulidTime,
} from './jobIds';
export type { JobRef } from './jobIds';
export * from './schemas';
export { sourceUrlLimits, timeLimits } from './timeLimits';
export { clock, useClock, wallClock } from './clock';
export type { Clock } from './clock';
export { fetchSourceUrl, shownUrl } from './sourceUrl';
export { headerOf } from './responseBody';
export type { FetchedSource, SourceUrlRequest } from './sourceUrl';
export { treatLoopbackAsPublic, useResolver } from './privateNetworks';
export type { Resolver } from './privateNetworks';
export { addressClassOf } from './addressClass';
export type { AddressClass } from './addressClass';
