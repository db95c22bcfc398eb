/** Bytes a job request streams before it gives way to other accounts' requests still smaller than that. */
export const smallRequestBytes = 1024 * 1024;
/** Longest a request gives way in all, so a client that sends its small request slowly holds no one for long. */
export const longestYieldMs = 10_000;
/**
 * A large request also gives way this long after another account's small request ended: that account's
 * client is polling its job or sending its next one, and 500 MB flowing between its requests took the CPU
 * they and the engine need (measured: the load test's other accounts passed at 1.3-1.6x without the upload).
 */
export const recentRequestMs = 2_000;
/** How often a large request paused for other accounts' jobs looks again whether they still run. */
const jobCheckMs = 25;

/**
 * Accounts take turns for the event loop that reads request bodies and for the inspection of their sources: a
 * job request past `smallRequestBytes` pauses its reading (the client is held back by TCP), and waits before
 * inspecting its next source, while another account's request that is still small is in progress, from its
 * first byte to its answer, or another account's short job is processing (`othersWorking`): the HTTP thread
 * then reads and records that account's requests and results without 50 MB bodies to parse beside them.
 * Ten 50 MB uploads then cost another account's one-file job nothing but its own time; two large requests
 * never wait for each other.
 */
export class UploadTurns {
	private readonly inProgress = new Set<UploadTicket>();
	/** When each account's last small request ended (performance.now()). */
	private readonly smallEnded = new Map<string, number>();
	private waiting: Array<() => void> = [];

	constructor(
		/** Whether an account other than the one given has a short job processing (services/jobRunner.ts). */
		private readonly othersWorking: (accountId: string) => boolean = () => false,
	) {}

	/** A job request of `accountId` starts: its ticket, to report the bytes it streams and to end it. */
	begin(accountId: string): UploadTicket {
		const ticket = new UploadTicket(this, accountId);
		this.inProgress.add(ticket);
		return ticket;
	}

	/**
	 * Why `ticket` must give way now: 'request' while it is large and another account's small request is in
	 * progress, 'job' while it is large and another account's short job is processing or its small request ended
	 * within `recentRequestMs`; null otherwise.
	 */
	mustYield(ticket: UploadTicket): 'request' | 'job' | null {
		if (ticket.bytes <= smallRequestBytes) return null;
		for (const other of this.inProgress) {
			if (other.accountId !== ticket.accountId && other.bytes <= smallRequestBytes)
				return 'request';
		}
		if (this.othersWorking(ticket.accountId)) return 'job';
		const since = performance.now() - recentRequestMs;
		for (const [accountId, ended] of this.smallEnded) {
			if (ended < since) this.smallEnded.delete(accountId);
			else if (accountId !== ticket.accountId) return 'job';
		}
		return null;
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
		if (ticket.bytes <= smallRequestBytes) this.smallEnded.set(ticket.accountId, performance.now());
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

	/** Counts `size` more bytes streamed; resolves when the request may go on reading or inspecting. */
	async streamed(size: number): Promise<void> {
		const wasSmall = this.bytes <= smallRequestBytes;
		this.bytes += size;
		if (wasSmall && this.bytes > smallRequestBytes) this.turns.wake();
		for (;;) {
			const why = this.yieldedMs < longestYieldMs ? this.turns.mustYield(this) : null;
			if (!why) return;
			const started = performance.now();
			// A request ending wakes the waiters; a job ending is looked for.
			const left = longestYieldMs - this.yieldedMs;
			await this.turns.changed(why === 'job' ? Math.min(left, jobCheckMs) : left);
			this.yieldedMs += performance.now() - started;
		}
	}

	end(): void {
		this.turns.end(this);
	}
}
