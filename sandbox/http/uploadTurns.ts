/** Bytes a job request streams before it gives way to other accounts' requests still smaller than that. */
export const smallRequestBytes = 1024 * 1024;
/** Longest a request gives way in all, so a client that sends its small request slowly holds no one for long. */
export const longestYieldMs = 10_000;

/**
 * Accounts take turns for the event loop that reads request bodies: a job request past `smallRequestBytes`
 * pauses its reading (the client is held back by TCP) while another account's request that is still small is
 * in progress, from its first byte to its answer. Ten 50 MB uploads then cost another account's one-file job
 * request nothing but its own time; two large requests never wait for each other.
 */
export class UploadTurns {
	private readonly inProgress = new Set<UploadTicket>();
	private waiting: Array<() => void> = [];

	/** A job request of `accountId` starts: its ticket, to report the bytes it streams and to end it. */
	begin(accountId: string): UploadTicket {
		const ticket = new UploadTicket(this, accountId);
		this.inProgress.add(ticket);
		return ticket;
	}

	/** True while `ticket` is large and another account's small request is in progress. */
	mustYield(ticket: UploadTicket): boolean {
		if (ticket.bytes <= smallRequestBytes) return false;
		for (const other of this.inProgress) {
			if (other.accountId !== ticket.accountId && other.bytes <= smallRequestBytes) return true;
		}
		return false;
	}

	/** Waits until something changes (a request ends or stops being small), or `ms` have passed. */
	changed(ms: number): Promise<void> {
		return new Promise<void>((resolve) => {
			let timer: NodeJS.Timeout | undefined = undefined;
			const wake = () => {
				clearTimeout(timer);
				this.waiting = this.waiting.filter((waiter) => waiter !== wake);
				resolve();
			};
			timer = setTimeout(wake, ms);
			this.waiting.push(wake);
		});
	}

	/** Wakes every waiting request to look again. */
	wake(): void {
		for (const waiter of [...this.waiting]) waiter();
	}

	end(ticket: UploadTicket): void {
		if (this.inProgress.delete(ticket)) this.wake();
	}
}

/** One job request's place in the turns. */
export class UploadTicket {
	/** Bytes of files streamed so far. */
	bytes = 0;
	private yieldedMs = 0;

	constructor(
		private readonly turns: UploadTurns,
		readonly accountId: string,
	) {}

	/** Counts `size` more bytes streamed; resolves when the request may read on. */
	async streamed(size: number): Promise<void> {
		const wasSmall = this.bytes <= smallRequestBytes;
		this.bytes += size;
		if (wasSmall && this.bytes > smallRequestBytes) this.turns.wake();
		while (this.yieldedMs < longestYieldMs && this.turns.mustYield(this)) {
			const started = performance.now();
			await this.turns.changed(longestYieldMs - this.yieldedMs);
			this.yieldedMs += performance.now() - started;
		}
	}

	end(): void {
		this.turns.end(this);
	}
}
