import { parentPort } from 'node:worker_threads';

import { processJob } from './processJob';
import type { JobTask } from './task';

/** Worker thread body: runs the tasks the pool posts, one at a time, and posts each result back. */
parentPort?.on('message', (task: JobTask) => {
	void processJob(task).then((result) => parentPort?.postMessage({ jobId: task.jobId, result }));
});
