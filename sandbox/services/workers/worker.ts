import sharp from 'sharp';

import { processJob } from './processJob';
import { warmUpArgument, type JobTask, type TaskResult } from './task';
import { warmUp } from './warmUp';

// One libvips thread: the sandbox runs a job per engine process, and they share the machine's cores.
sharp.concurrency(1);
sharp.cache(false);

/** Engine process body: runs the tasks the pool sends, one at a time, and sends each result back. */
process.on('message', (task: JobTask) => {
	if (task.exhaustMemory) exhaustMemory();
	processJob(task)
		.then((result) => send({ jobId: task.jobId, result }))
		.catch((error: Error) => {
			const result: TaskResult = {
				ok: false,
				failureCode: 'engine_error',
				failureReason: `The engine's result could not be sent back: ${error.message}`,
				warnings: [],
			};
			send({ jobId: task.jobId, result });
		});
});
// The sandbox is gone (closed or killed): nothing is left to work for.
process.on('disconnect', () => process.exit(0));
// A warm-up that fails leaves the process only slower: it is said on stderr and the process takes jobs.
const warmed = process.argv.includes(warmUpArgument)
	? warmUp().catch((error: Error) => console.error(`Engine warm-up failed: ${error.message}`))
	: Promise.resolve();
void warmed.then(() => send({ ready: true }));

function send(message: object): void {
	if (process.connected) process.send!(message);
}

/** Holds ever more heap until V8 stops the process at its --max-old-space-size ceiling. */
function exhaustMemory(): never {
	const hoard: number[][] = [];
	for (;;) hoard.push(new Array<number>(1 << 16).fill(hoard.length));
}
