import { parentPort } from 'node:worker_threads';

import { processJob } from './processJob';
import type { JobTask, TaskResult } from './task';

/** Worker thread body: runs the tasks the pool posts, one at a time, and posts each result back. */
parentPort?.on('message', (task: JobTask) => {
	if (task.exhaustMemory) exhaustMemory();
	processJob(task)
		.then((result) => parentPort?.postMessage({ jobId: task.jobId, result }))
		.catch((error: Error) => {
			const result: TaskResult = {
				ok: false,
				failureCode: 'engine_error',
				failureReason: `The engine's result could not be sent back: ${error.message}`,
				warnings: [],
			};
			parentPort?.postMessage({ jobId: task.jobId, result });
		});
});

/** Holds ever more heap until V8 stops the thread at its resourceLimits ceiling. */
function exhaustMemory(): never {
	const hoard: number[][] = [];
	for (;;) hoard.push(new Array<number>(1 << 16).fill(hoard.length));
}
