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
