import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { JobTask, TaskResult } from './task';

interface Slot {
	child: ChildProcess;
	/** The process has loaded the engine and listens for tasks. */
	ready: boolean;
	task: JobTask | null;
	finish: ((result: TaskResult) => void) | null;
	timer: NodeJS.Timeout | null;
	/** The end of what the process wrote to stderr, to tell a heap-limit death from other crashes. */
	stderr: string;
	exited: Promise<void>;
}

/**
 * Engine processes, one job per process at a time, off the HTTP event loop. They are processes, not
 * worker threads: a thread's terminate() waits for the image work (libvips) it started, so a timed-out
 * or shut-down job could keep running for minutes; a process is killed with SIGKILL and its work ends there.
 */
export class WorkerPool {
	private readonly slots: Slot[] = [];
	private closed = false;

	constructor(
		size: number,
		private readonly jobTimeoutMs: number,
		/** V8 heap ceiling of each process; a job past it ends its process, which is then replaced. */
		private readonly memoryMb: number,
	) {
		for (let i = 0; i < size; i++) this.slots.push(this.spawn());
	}

	/** Engine processes in all. */
	get size(): number {
		return this.slots.length;
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
		const slot = this.slots.find((candidate) => candidate.task === null);
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

	private send(slot: Slot): void {
		this.startTimer(slot);
		slot.child.send(slot.task!);
	}

	private startTimer(slot: Slot): void {
		if (slot.timer) clearTimeout(slot.timer);
		slot.timer = setTimeout(() => {
			this.crashed(slot, {
				ok: false,
				failureCode: 'engine_timeout',
				failureReason: `Processing took longer than ${Math.round(this.jobTimeoutMs / 1000)} seconds and was stopped.`,
				warnings: [],
			});
		}, this.jobTimeoutMs);
	}

	/** Kills every process at once (a running job's work stops with it) and waits until they are gone. */
	async close(): Promise<void> {
		this.closed = true;
		for (const slot of this.slots) {
			// An unreferenced process's exit would not keep an embedding script alive until it comes.
			slot.child.ref();
			slot.child.kill('SIGKILL');
		}
		await Promise.all(this.slots.map((slot) => slot.exited));
	}

	private spawn(): Slot {
		const child = fork(join(__dirname, 'bootstrap.js'), [], {
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
		this.slots.splice(index, 1);
		slot.child.removeAllListeners('message');
		slot.child.ref();
		slot.child.kill('SIGKILL');
		if (slot.timer) clearTimeout(slot.timer);
		slot.timer = null;
		if (!this.closed) this.slots.push(this.spawn());
		void slot.exited.then(() => this.settle(slot, result));
	}

	private settle(slot: Slot, result: TaskResult): void {
		const finish = slot.finish;
		if (slot.timer) clearTimeout(slot.timer);
		slot.task = null;
		slot.finish = null;
		slot.timer = null;
		finish?.(result);
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
