/**
 * How long the node waits on the service. Tests shrink these, as they do the pacing window.
 * Downloads have no total limit: a large file may take as long as it needs while bytes keep arriving.
 */
export const timeLimits = {
	/** Until a JSON answer has fully arrived. */
	jsonMs: 60_000,
	/** Until the service answers an upload (POST /jobs sends up to 10 files of up to 50 MB). */
	uploadMs: 15 * 60_000,
	/** Until a file download's answer starts, and then between two chunks of its bytes. */
	fileIdleMs: 60_000,
	/** Redirects followed within the service's own origin before the node gives up. */
	maxRedirects: 5,
};

/**
 * How long the node waits on the server of a Source URL (Job > Create from a URL), someone else's server
 * that may answer slowly, stall or never end. The size ceiling is the workflow's (helpers/limits.ts).
 */
export const sourceUrlLimits = {
	/** Until the server answers with its headers (connection and TLS included), per redirect hop. */
	answerMs: 30_000,
	/** Between two chunks of the file's bytes. */
	idleMs: 30_000,
	/** The whole fetch, redirects and every byte included. */
	totalMs: 10 * 60_000,
	/** Redirects followed before the node gives up. */
	maxRedirects: 5,
};
