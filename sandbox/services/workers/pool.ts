import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import type { JobTask, TaskResult } from './task';

interface Slot {
	worker: Worker;
	task: JobTask | null;
	finish: ((result: TaskResult) => void) | null;
	timer: NodeJS.Timeout | null;
}

/** Worker threads that run the engine off the HTTP event loop, one job per thread at a time. */
export class WorkerPool {
	private readonly slots: Slot[] = [];
	private closed = false;

	constructor(
		size: number,
		private readonly jobTimeoutMs: number,
		/** V8 heap ceiling of each thread; a job past it ends its thread, which is then replaced. */
		private readonly memoryMb: number,
	) {
		for (let i = 0; i < size; i++) this.slots.push(this.spawn());
	}

	get idle(): number {
		return this.closed ? 0 : this.slots.filter((slot) => slot.task === null).length;
	}

	get busy(): number {
		return this.slots.filter((slot) => slot.task !== null).length;
	}

	/** Runs a task on an idle thread; never rejects: crashes and timeouts come back as failures. */
	run(task: JobTask): Promise<TaskResult> {
		const slot = this.slots.find((candidate) => candidate.task === null);
		if (!slot || this.closed) throw new Error('No idle worker: check `idle` before calling run().');
		slot.task = task;
		return new Promise<TaskResult>((resolve) => {
			slot.finish = resolve;
			slot.timer = setTimeout(() => {
				this.settle(slot, {
					ok: false,
					failureCode: 'engine_timeout',
					failureReason: `Processing took longer than ${Math.round(this.jobTimeoutMs / 1000)} seconds and was stopped.`,
					warnings: [],
				});
				this.replace(slot);
			}, this.jobTimeoutMs);
			slot.worker.postMessage(task);
		});
	}

	async close(): Promise<void> {
		this.closed = true;
		await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
	}

	private spawn(): Slot {
		const slot: Slot = {
			worker: new Worker(join(__dirname, 'bootstrap.js'), {
				resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
			}),
			task: null,
			finish: null,
			timer: null,
		};
		slot.worker.on('message', (message: { jobId: string; result: TaskResult }) => {
			if (slot.task?.jobId === message.jobId) this.settle(slot, message.result);
		});
		slot.worker.on('error', (error: Error & { code?: string }) => {
			if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
				this.crashed(slot, {
					ok: false,
					failureCode: 'engine_out_of_memory',
					failureReason: `Processing needed more than the engine's ${this.memoryMb} MB of memory and was stopped.`,
					warnings: [],
				});
			} else this.crashed(slot, crash(error.message));
		});
		slot.worker.on('exit', (code) =>
			this.crashed(slot, crash(`the worker thread exited with code ${code}`)),
		);
		slot.worker.unref();
		return slot;
	}

	/** A thread that died fails its job (if it had one) and is replaced by a fresh one. */
	private crashed(slot: Slot, result: TaskResult): void {
		if (this.closed || !this.slots.includes(slot)) return;
		this.settle(slot, result);
		this.replace(slot);
	}

	private settle(slot: Slot, result: TaskResult): void {
		const finish = slot.finish;
		if (slot.timer) clearTimeout(slot.timer);
		slot.task = null;
		slot.finish = null;
		slot.timer = null;
		finish?.(result);
	}

	private replace(slot: Slot): void {
		const index = this.slots.indexOf(slot);
		if (index === -1) return;
		this.slots.splice(index, 1);
		slot.worker.removeAllListeners();
		slot.worker.on('error', () => undefined);
		slot.worker.terminate().catch(() => undefined);
		if (!this.closed) this.slots.push(this.spawn());
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
