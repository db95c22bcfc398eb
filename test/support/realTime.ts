/**
 * Waits on the wall clock, for tests that watch something outside the driven clock happen (a file
 * disappearing, a process being replaced, a connection closing).
 */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the deadline passes; returns whether it held. */
export async function eventually(
	check: () => boolean | Promise<boolean>,
	timeoutMs = 5000,
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) return false;
		await sleep(25);
	}
	return true;
}
