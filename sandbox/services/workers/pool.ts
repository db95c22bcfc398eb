import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { join } from 'node:path';

import { warmUpArgument, type JobTask, type TaskResult } from './task';

interface Slot {
	child: ChildProcess;
	/** The process has loaded the engine and listens for tasks. */
	ready: boolean;
	task: JobTask | null;
	finish: ((result: TaskResult) => void) | null;
	timer: NodeJS.Timeout | null;
	/** The running task's place on its time limit, from when it was sent (see `check`); null before. */
	run: {
		cpuAtSend: number;
		charged: number;
		wall: number;
		cpu: number;
		background: boolean;
	} | null;
	/** The process's priority (nice value) when it started: its own, where a job that gave way comes back to. */
	priority: number;
	/** The CPU time the process's last task used, until the process takes another. */
	last: { jobId: string; cpuMs: number } | null;
	/** The end of what the process wrote to stderr, to tell a heap-limit death from other crashes. */
	stderr: string;
	exited: Promise<void>;
}

/**
 * A job that has used this much CPU time runs in the background while another account has work (`givesWay`).
 * CPU time, not the time since it started: on a machine short of CPU a conversion takes long and is still short.
 * A conversion, even of a commercial design, uses 10 to 40 ms; what goes past 150 ms is digitising or costly
 * artwork. At 500 ms the costliest SVG drew its first half second beside the other accounts' conversions:
 * `npm run bench:fair` measured them 1.88x and 1.63x their idle time, against 1.29x and 1.20x at 150 ms.
 */
export const backgroundAfterCpuMs = 150;
/** The background: the lowest priority (nice 19), about 1/70 of the CPU a process at nice 0 gets beside it. */
export const backgroundNice = 19;
/**
 * In the background a job is charged its CPU time toward its time limit, and at least this share of the time
 * passing: it is never failed for having given way, and a process that hangs there still ends.
 */
export const backgroundLeastCharge = 0.1;
/** How often running jobs' priorities and time limits are looked at. */
const checkEveryMs = 100;

/**
 * Engine processes, one job per process at a time, off the HTTP event loop. They are processes, not
 * worker threads: a thread's terminate() waits for the image work (libvips) it started, so a timed-out
 * or shut-down job could keep running for minutes; a process is killed with SIGKILL and its work ends there.
 */
export class WorkerPool {
	private readonly slots: Slot[] = [];
	private closed = false;
	/** Callers of `ready()` waiting for every process to take jobs. */
	private readonly readyWaiters: Array<() => void> = [];
	private readonly checker: NodeJS.Timeout;

	constructor(
		size: number,
		private readonly jobTimeoutMs: number,
		/** V8 heap ceiling of each process; a job past it ends its process, which is then replaced. */
		private readonly memoryMb: number,
		/** Whether job `jobId` should give way now (another account has work); never, unless told. */
		private readonly givesWay: (jobId: string) => boolean = () => false,
		/**
		 * The time (ms, monotonic) jobs are charged in, the system's own unless a test drives it. Not the
		 * sandbox's clock: moving that forward (expiring keys, rolling daily limits) must not fail a running job.
		 */
		private readonly now: () => number = () => performance.now(),
		/**
		 * Whether processes warm up (see warmUp.ts) before they take jobs, at the start one per core; a job sent
		 * meanwhile waits for a process that takes jobs.
		 */
		private readonly warmUp: boolean = false,
	) {
		// One warm-up per core at the start: more, side by side, would each take as much longer, and a job sent
		// meanwhile would wait for one of them instead of running cold on a process already taking jobs.
		const warming = warmUp ? availableParallelism() : 0;
		for (let i = 0; i < size; i++) this.slots.push(this.spawn(i < warming));
		this.checker = setInterval(() => this.check(), checkEveryMs);
		this.checker.unref();
	}

	/**
	 * Brings each running job's priority and time limit up to date. At its own priority a job is charged the
	 * time passing; past `backgroundAfterCpuMs` of CPU, while it gives way, every thread of its process (libvips
	 * starts its own; Linux sets priorities thread by thread) runs at `backgroundNice` and the job is charged
	 * its CPU time (at least `backgroundLeastCharge` of the time passing). A job charged its whole limit fails.
	 */
	check(): void {
		const now = this.now();
		for (const slot of [...this.slots]) {
			const run = slot.run;
			if (!run || !slot.task) continue;
			const cpu = processCpuMs(slot.child.pid) ?? run.cpu;
			run.charged += run.background
				? Math.max(cpu - run.cpu, (now - run.wall) * backgroundLeastCharge)
				: now - run.wall;
			run.wall = now;
			run.cpu = cpu;
			if (run.charged >= this.jobTimeoutMs) {
				this.timedOut(slot);
				continue;
			}
			const background =
				cpu - run.cpuAtSend >= backgroundAfterCpuMs && this.givesWay(slot.task.jobId);
			// Again while in the background: threads the process started since go too.
			if (background || run.background)
				setThreadPriorities(slot.child.pid, background ? backgroundNice : slot.priority);
			run.background = background;
		}
	}

	/**
	 * The CPU time (ms) job `jobId` has used, while it runs and after, until its process takes another job;
	 * undefined for a job no process ran or where the system does not tell.
	 */
	jobCpuMs(jobId: string): number | undefined {
		for (const slot of this.slots) {
			if (slot.task?.jobId === jobId && slot.run) {
				const cpu = processCpuMs(slot.child.pid);
				return cpu === null ? undefined : cpu - slot.run.cpuAtSend;
			}
			if (slot.last?.jobId === jobId) return slot.last.cpuMs;
		}
		return undefined;
	}

	/** Engine processes in all. */
	get size(): number {
		return this.slots.length;
	}

	/**
	 * Resolves once every engine process takes jobs (warmed up, where it warms up first); at once when they
	 * all do, or once the pool is closed.
	 */
	ready(): Promise<void> {
		if (this.closed || this.slots.every((slot) => slot.ready)) return Promise.resolve();
		return new Promise((resolve) => this.readyWaiters.push(resolve));
	}

	get idle(): number {
		return this.closed ? 0 : this.slots.filter((slot) => slot.task === null).length;
	}

	get busy(): number {
		return this.slots.filter((slot) => slot.task !== null).length;
	}

	/**
	 * Runs a task on an idle process (sent once it is ready); never rejects: crashes and timeouts come
	 * back as failures, and only once the process that ran the task is gone, so it writes nothing after.
	 */
	run(task: JobTask): Promise<TaskResult> {
		// A process still starting (a replacement) only when no ready one is idle.
		const idle = this.slots.filter((candidate) => candidate.task === null);
		const slot = idle.find((candidate) => candidate.ready) ?? idle[0];
		if (!slot || this.closed) throw new Error('No idle worker: check `idle` before calling run().');
		slot.task = task;
		return new Promise<TaskResult>((resolve) => {
			slot.finish = resolve;
			// A process still starting (a replacement) gets the job's allowance to become ready, and the job
			// its whole allowance once it is sent: start-up on a loaded machine is not the job's time.
			if (slot.ready) this.send(slot);
			else this.startTimer(slot);
		});
	}

	/** From here on the job's time limit is charged by `check`. */
	private send(slot: Slot): void {
		if (slot.timer) clearTimeout(slot.timer);
		slot.timer = null;
		const cpu = processCpuMs(slot.child.pid) ?? 0;
		slot.run = { cpuAtSend: cpu, charged: 0, wall: this.now(), cpu, background: false };
		slot.last = null;
		slot.child.send(slot.task!);
	}

	private startTimer(slot: Slot): void {
		if (slot.timer) clearTimeout(slot.timer);
		slot.timer = setTimeout(() => this.timedOut(slot), this.jobTimeoutMs);
	}

	private timedOut(slot: Slot): void {
		this.crashed(slot, {
			ok: false,
			failureCode: 'engine_timeout',
			failureReason: `Processing took longer than ${Math.round(this.jobTimeoutMs / 1000)} seconds and was stopped.`,
			warnings: [],
		});
	}

	/** Kills every process at once (a running job's work stops with it) and waits until they are gone. */
	async close(): Promise<void> {
		this.closed = true;
		clearInterval(this.checker);
		for (const done of this.readyWaiters.splice(0)) done();
		for (const slot of this.slots) {
			// An unreferenced process's exit would not keep an embedding script alive until it comes.
			slot.child.ref();
			slot.child.kill('SIGKILL');
		}
		await Promise.all(this.slots.map((slot) => slot.exited));
	}

	private spawn(warmUp: boolean): Slot {
		const child = fork(join(__dirname, 'bootstrap.js'), warmUp ? [warmUpArgument] : [], {
			execArgv: [`--max-old-space-size=${this.memoryMb}`],
			serialization: 'advanced',
			stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
		});
		const slot: Slot = {
			child,
			ready: false,
			task: null,
			finish: null,
			timer: null,
			run: null,
			priority: ownPriority(child.pid),
			last: null,
			stderr: '',
			exited: new Promise((resolve) => child.once('exit', () => resolve())),
		};
		child.stderr!.on('data', (chunk: Buffer) => {
			slot.stderr = (slot.stderr + chunk.toString()).slice(-4096);
		});
		child.on('message', (message: { ready?: true; jobId?: string; result?: TaskResult }) => {
			if (message.ready) {
				slot.ready = true;
				if (slot.task) this.send(slot);
				if (this.slots.every((other) => other.ready))
					for (const done of this.readyWaiters.splice(0)) done();
			} else if (slot.task && slot.task.jobId === message.jobId) this.settle(slot, message.result!);
		});
		child.on('error', (error) => this.crashed(slot, crash(error.message)));
		child.once('exit', (code, signal) => {
			if (/heap limit|JavaScript heap out of memory/.test(slot.stderr)) {
				this.crashed(slot, {
					ok: false,
					failureCode: 'engine_out_of_memory',
					failureReason: `Processing needed more than the engine's ${this.memoryMb} MB of memory and was stopped.`,
					warnings: [],
				});
			} else {
				this.crashed(slot, crash(`the engine process exited with ${signal ?? `code ${code}`}`));
			}
		});
		// Neither the process nor its channel keeps the sandbox alive; it dies with the sandbox's channel.
		child.unref();
		child.channel?.unref();
		return slot;
	}

	/**
	 * A process that died or overran fails its job (if it had one) once it is gone, and is replaced
	 * by a fresh one.
	 */
	private crashed(slot: Slot, result: TaskResult): void {
		const index = this.slots.indexOf(slot);
		// On close the job stays `processing`: the next start's recover() queues it again.
		if (index === -1 || this.closed) return;
		if (slot.timer) clearTimeout(slot.timer);
		slot.timer = null;
		slot.run = null;
		this.replace(slot);
		void slot.exited.then(() => this.settle(slot, result));
	}

	/** Kills the slot's process (its work stops with it) and puts a fresh one in its place. */
	private replace(slot: Slot): void {
		const index = this.slots.indexOf(slot);
		if (index === -1 || this.closed) return;
		this.slots.splice(index, 1);
		slot.child.removeAllListeners('message');
		slot.child.ref();
		slot.child.kill('SIGKILL');
		// A process that died before it was ready may have died warming up: its replacement starts cold, so a
		// warm-up that cannot finish is never run again and again.
		this.slots.push(this.spawn(this.warmUp && slot.ready));
	}

	private settle(slot: Slot, result: TaskResult): void {
		const finish = slot.finish;
		if (slot.timer) clearTimeout(slot.timer);
		if (slot.task && slot.run) {
			const cpu = processCpuMs(slot.child.pid);
			if (cpu !== null) slot.last = { jobId: slot.task.jobId, cpuMs: cpu - slot.run.cpuAtSend };
			// Where the system refuses to raise the process's priority again, a fresh process takes its place.
			if (slot.run.background && !setThreadPriorities(slot.child.pid, slot.priority))
				this.replace(slot);
		}
		slot.run = null;
		slot.task = null;
		slot.finish = null;
		slot.timer = null;
		finish?.(result);
	}
}

/** A process's nice value; the sandbox's own where the system does not tell. */
function ownPriority(pid: number | undefined): number {
	try {
		return getPriority(pid ?? 0);
	} catch {
		return getPriority(0);
	}
}

/** Sets every thread of process `pid` to `nice`; false where the system refused. */
function setThreadPriorities(pid: number | undefined, nice: number): boolean {
	if (pid === undefined) return false;
	let threads: number[];
	try {
		threads = readdirSync(`/proc/${pid}/task`).map(Number);
	} catch {
		threads = [pid];
	}
	for (const thread of threads) {
		try {
			setPriority(thread, nice);
		} catch (error) {
			// A thread that ended meanwhile needs nothing.
			if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') return false;
		}
	}
	return true;
}

/** USER_HZ: the clock ticks a second in /proc's CPU times, 100 on every Linux this runs on. */
const ticksPerSecond = 100;

/** A process's CPU time so far (ms, every thread, user and system), or null where /proc does not tell. */
export function processCpuMs(pid: number | undefined): number | null {
	if (pid === undefined) return null;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
		// The fields after the command name (in parentheses, may hold spaces): utime and stime are the 12th and 13th.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
	} catch {
		return null;
	}
}

function crash(why: string): TaskResult {
	return {
		ok: false,
		failureCode: 'engine_error',
		failureReason: `The engine crashed: ${why}.`,
		warnings: [],
	};
}
