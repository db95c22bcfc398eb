/**
 * Time as a dependency: one clock for the node (nodes/Embroidery/transport/clock.ts) and the sandbox
 * (sandbox/services/clock.ts) that runs with real time and can skip ahead. A wait on it ends when real
 * time reaches it, or as soon as the test moves the clock past it (`advance`), or, while the clock is
 * driven (`drive`), as soon as nothing else is going on: no request being answered, no job being
 * processed, nothing done for a moment. A 60-second rate window or a Retry-After then passes in
 * milliseconds, and both sides still agree on what "a minute" is.
 */
import { channel, subscribe, unsubscribe, type Channel } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

import type { Clock } from '../../nodes/Embroidery/transport/clock';
import { useClock } from '../../nodes/Embroidery/transport/clock';
import type { TimeSource } from '../../sandbox/services/clock';

interface Sleeper {
	at: number;
	timer: NodeJS.Timeout;
	/** A request being answered is parked on this wait (the sandbox's injected latency). */
	parksAnswer: boolean;
	/** The client port of the request parked here, when it is known (a proxy in this process). */
	parkedPort?: number;
	wake(): void;
}

export interface DriveOptions {
	/** True while something the clock must not skip over is going on (a sandbox's `atRest() === false`). */
	busy?: () => boolean;
	/** Real milliseconds without any use of the clock before it skips to the next wake-up. */
	settleMs?: number;
}

/**
 * Requests this process has under way that no clock use shows: file reads and writes (n8n's binary data
 * store writing a download), name look-ups, connections being opened, writes to a socket.
 */
const ioUnderWay = /^(FSReq|GetAddrInfoReqWrap|TCPConnectWrap|WriteWrap|ShutdownWrap)/;

/**
 * HTTP requests of this process between being sent and the last byte of their answer arriving: a node waiting
 * on the service (or on a proxy in front of it), or reading a download's body, uses no clock, and a skip then
 * would fire its time limits early.
 */
const requestsAwaitingAnswer = new Set<object>();
const requestOf = (message: unknown) => (message as { request: object }).request;
const handlers: Array<[string, (message: unknown) => void]> = [
	['http.client.request.start', (message) => requestsAwaitingAnswer.add(requestOf(message))],
	['http.client.request.error', (message) => requestsAwaitingAnswer.delete(requestOf(message))],
	// The answer's head has arrived; its body may still be on the way. It is done when the body has ended, or
	// when the answer is closed without it (destroyed, its connection lost).
	[
		'http.client.response.finish',
		(message) => {
			const { request, response } = message as { request: object; response: IncomingMessage };
			const done = () => requestsAwaitingAnswer.delete(request);
			if (response.complete) done();
			else {
				response.once('end', done);
				response.once('close', done);
			}
		},
	],
];

/**
 * Jest loads this module afresh for each test file, in a worker whose channels stay from file to file: the
 * previous file's handlers come off first, so each answer is watched once, for the file that runs. Left on,
 * they piled up, one more each file, and the eleventh file's answers each carried 11 'end' listeners.
 */
const unsubscribePrevious = Symbol.for('n8n-nodes-embroidery.testClock.unsubscribe');
const startChannel = channel('http.client.request.start') as Channel & {
	[unsubscribePrevious]?: () => void;
};
startChannel[unsubscribePrevious]?.();
for (const [name, handler] of handlers) subscribe(name, handler);
startChannel[unsubscribePrevious] = () => {
	for (const [name, handler] of handlers) unsubscribe(name, handler);
};

function localIoUnderWay(): boolean {
	return process.getActiveResourcesInfo().some((type) => ioUnderWay.test(type));
}

export class TestClock implements Clock, TimeSource {
	private skippedMs = 0;
	private readonly sleepers = new Set<Sleeper>();
	private lastUsed = performance.now();
	private driving: NodeJS.Timeout | undefined;
	private driveOptions: DriveOptions | undefined;

	/** Real time plus every skip so far. */
	now(): number {
		this.lastUsed = performance.now();
		return Date.now() + this.skippedMs;
	}

	/** Time skipped so far (what the waits would have taken on the wall clock). */
	get skipped(): number {
		return this.skippedMs;
	}

	sleep(ms: number, signal?: AbortSignal): Promise<void> {
		return this.wait(ms, signal, false);
	}

	/**
	 * The sandbox's injected latency: a wait the request in flight is parked on (see `drive`). A server in this
	 * process that holds a request of this process passes that request's client port (`socket.remotePort`).
	 */
	delayAnswer(ms: number, parkedPort?: number): Promise<void> {
		return this.wait(ms, undefined, true, parkedPort);
	}

	private wait(
		ms: number,
		signal: AbortSignal | undefined,
		parksAnswer: boolean,
		parkedPort?: number,
	): Promise<void> {
		this.lastUsed = performance.now();
		return new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(abortReasonOf(signal));
			const onAbort = () => {
				clearTimeout(sleeper.timer);
				this.sleepers.delete(sleeper);
				reject(abortReasonOf(signal!));
			};
			const sleeper: Sleeper = {
				at: this.now() + Math.max(0, ms),
				timer: setTimeout(() => sleeper.wake(), Math.max(0, ms)),
				parksAnswer,
				parkedPort,
				wake: () => {
					clearTimeout(sleeper.timer);
					this.sleepers.delete(sleeper);
					signal?.removeEventListener('abort', onAbort);
					this.lastUsed = performance.now();
					resolve();
				},
			};
			this.sleepers.add(sleeper);
			signal?.addEventListener('abort', onAbort, { once: true });
		});
	}

	/** Moves time forward by `ms` at once: every wait due by then ends, earliest first. */
	advance(ms: number): void {
		this.skippedMs += Math.max(0, ms);
		const now = Date.now() + this.skippedMs;
		const due = [...this.sleepers]
			.filter((sleeper) => sleeper.at <= now)
			.sort((a, b) => a.at - b.at);
		for (const sleeper of due) sleeper.wake();
		// The others still end in real time, now that much sooner.
		for (const sleeper of this.sleepers) {
			clearTimeout(sleeper.timer);
			sleeper.timer = setTimeout(() => sleeper.wake(), Math.max(0, sleeper.at - now));
		}
	}

	/** The earliest pending wake-up, or undefined when nothing waits. */
	get nextWakeAt(): number | undefined {
		return this.earliestSleeper()?.at;
	}

	/**
	 * Every HTTP request of this process awaiting its answer is parked on this clock by a server of this process:
	 * nothing real is under way, so a skip to any wake-up (a client's own time limit too) is what would happen.
	 */
	private everyRequestParked(): boolean {
		const parked = new Set<number>();
		for (const sleeper of this.sleepers)
			if (sleeper.parkedPort !== undefined) parked.add(sleeper.parkedPort);
		return [...requestsAwaitingAnswer].every((request) => {
			const port = (request as { socket?: { localPort?: number } | null }).socket?.localPort;
			return port !== undefined && parked.has(port);
		});
	}

	private earliestSleeper(): Sleeper | undefined {
		let earliest: Sleeper | undefined;
		for (const sleeper of this.sleepers)
			if (earliest === undefined || sleeper.at < earliest.at) earliest = sleeper;
		return earliest;
	}

	/**
	 * Skips every wait as soon as nothing else is going on, until `stop` is called: each time the clock has
	 * not been used for `settleMs` of real time, something waits on it, no file or socket request of this
	 * process is under way, no HTTP request of this process awaits its answer and `busy()` is false, it jumps
	 * to the earliest wake-up. Real work in between (a request, a job, a download being stored) takes its real
	 * time on this clock too.
	 *
	 * One wait may be skipped while requests await their answers: the sandbox's injected latency
	 * (`delayAnswer`), when it is the earliest wake-up. A request parked on it waits for nothing else, and
	 * every time limit of the client lies later, so the jump fires none of them. Any wait may be skipped when
	 * every request awaiting its answer is parked by a server of this process that said which (`delayAnswer`'s
	 * port): a client's time limit that comes first then fires as it would have.
	 */
	drive(options: DriveOptions = {}): () => void {
		const { busy = () => false, settleMs = 15 } = options;
		this.stopDriving();
		this.driveOptions = options;
		const tick = () => {
			const next = this.earliestSleeper();
			if (
				next !== undefined &&
				performance.now() - this.lastUsed >= settleMs &&
				!localIoUnderWay() &&
				(requestsAwaitingAnswer.size === 0 || next.parksAnswer || this.everyRequestParked()) &&
				!busy()
			) {
				this.advance(next.at - (Date.now() + this.skippedMs));
			}
			this.driving = setTimeout(tick, Math.max(1, Math.floor(settleMs / 3)));
		};
		this.driving = setTimeout(tick, settleMs);
		return () => this.stopDriving();
	}

	/**
	 * Stops skipping (the clock keeps real time) until the returned resume is called: for a test that checks a
	 * wait of real length on purpose, named "(real time)".
	 */
	pause(): () => void {
		const options = this.driveOptions;
		this.stopDriving();
		return () => {
			if (options) this.drive(options);
		};
	}

	private stopDriving(): void {
		clearTimeout(this.driving);
		this.driving = undefined;
		this.driveOptions = undefined;
	}
}

function abortReasonOf(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');
}

/**
 * A driven clock for the node in the surrounding `describe` (or the file): put in force before its tests and
 * driven while they run, the wall clock back after them. Pass the same clock to the sandbox (`time`) and
 * its `atRest` as `busy`, so both sides share one time and no wait is skipped while the sandbox works.
 */
export function useTestClock(clock = new TestClock(), options: DriveOptions = {}): TestClock {
	let restore: (() => void) | undefined;
	let stop: (() => void) | undefined;
	beforeAll(() => {
		restore = useClock(clock);
		stop = clock.drive(options);
	});
	afterAll(() => {
		stop?.();
		restore?.();
	});
	return clock;
}

/**
 * Real time for the surrounding `describe`: the driven clock stops skipping before its tests and
 * resumes after them.
 */
export function useRealTime(clock: TestClock): void {
	let resume: (() => void) | undefined;
	beforeAll(() => {
		resume = clock.pause();
	});
	afterAll(() => resume?.());
}
