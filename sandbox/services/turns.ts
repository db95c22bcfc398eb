/**
 * Accounts take turns for the engine: of the accounts with queued jobs, the next engine process goes to
 * the one with the fewest jobs processing, then the one served longest ago (never served first), and to
 * that account's oldest queued job. One account's queue can then hold another's job back by at most the
 * jobs already running, never by its whole backlog.
 */
export class EngineTurns {
	private turnsGiven = 0;
	private readonly lastServed = new Map<string, number>();

	/** The job to start next: one of `heads` (each account's oldest queued job), or undefined when none. */
	next<T extends { id: string; account_id: string }>(
		heads: T[],
		processingOf: (accountId: string) => number,
	): T | undefined {
		let best: T | undefined;
		let bestKey: [number, number, string] | undefined;
		for (const head of heads) {
			const key: [number, number, string] = [
				processingOf(head.account_id),
				this.lastServed.get(head.account_id) ?? -1,
				head.id,
			];
			if (!bestKey || compare(key, bestKey) < 0) {
				best = head;
				bestKey = key;
			}
		}
		return best;
	}

	/** Records that `accountId` was just given an engine process. */
	served(accountId: string): void {
		this.lastServed.set(accountId, this.turnsGiven++);
	}

	/** Forgets every account (the control API's reset). */
	clear(): void {
		this.lastServed.clear();
	}
}

function compare(a: [number, number, string], b: [number, number, string]): number {
	if (a[0] !== b[0]) return a[0] - b[0];
	if (a[1] !== b[1]) return a[1] - b[1];
	return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}
