/**
 * Accounts take turns for a shared resource (the engine processes, the upload inspection threads): of the
 * accounts with work waiting, the next process or thread goes to the one with the fewest in use, then the
 * one served longest ago (never served first), and to that account's oldest waiting work. One account's
 * backlog can then hold another's work back by at most the work already running, never by the whole backlog.
 */
export class AccountTurns {
	private turnsGiven = 0;
	private readonly lastServed = new Map<string, number>();

	/** The work to start next: one of `heads` (each account's oldest waiting work), or undefined when none. */
	next<T extends { id: string; account_id: string }>(
		heads: T[],
		/** How many processes or threads the account holds now. */
		inUse: (accountId: string) => number,
	): T | undefined {
		let best: T | undefined;
		let bestKey: [number, number, string] | undefined;
		for (const head of heads) {
			const key: [number, number, string] = [
				inUse(head.account_id),
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

	/** Records that `accountId` was just given a process or thread. */
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
