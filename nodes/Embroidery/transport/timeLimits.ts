/**
 * How long the node waits on the service, per try of a request. Each is a limit in all, not only between
 * bytes: an answer trickled a byte at a time ends at it too. Tests shrink these, as they do the pacing window.
 */
export const timeLimits = {
	/** Until a JSON answer has fully arrived, its body included. */
	jsonMs: 60_000,
	/** Until the service has answered an upload (POST /jobs sends up to 10 files of up to 50 MB). */
	uploadMs: 15 * 60_000,
	/**
	 * Until a file download's answer starts; then between two chunks of its bytes; and for an error answer's
	 * body (its message), in all.
	 */
	fileIdleMs: 60_000,
	/** A file download in all, from its request to its last byte. */
	fileTotalMs: 30 * 60_000,
};

/**
 * How long the node waits on the server of a Source URL (Job > Create from a URL), someone else's server
 * that may answer slowly, stall or never end. The size ceiling is the workflow's (helpers/serviceLimits.ts),
 * the redirects' limit is in redirects.ts.
 */
export const sourceUrlLimits = {
	/** Until the server answers with its headers (connection and TLS included), per redirect hop. */
	answerMs: 30_000,
	/** Between two chunks of the file's bytes. */
	idleMs: 30_000,
	/** The whole fetch, redirects and every byte included. */
	totalMs: 10 * 60_000,
};
