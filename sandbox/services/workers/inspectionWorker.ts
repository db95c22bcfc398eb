import { stat } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

import { inspectSource, type InspectionRequest } from './inspection';

/** A source past this size is inspected in the background (nice 19): hashing it gives way to other work. */
export const largeSourceBytes = 1024 * 1024;
// This thread's own priority (Linux sets priorities thread by thread; 0 is the calling thread).
const ownPriority = getPriority(0);

/** Sets this thread's priority; where the system refuses (raising it again unprivileged), it stays as it is. */
function prioritise(priority: number): void {
	try {
		setPriority(0, priority);
	} catch {
		// Inspecting at a lower priority is slower, never wrong.
	}
}

/** Inspection thread body: answers each request with `{ id, inspection }` or `{ id, error }`. */
parentPort?.on('message', ({ id, request }: { id: number; request: InspectionRequest }) => {
	let large = false;
	stat(request.path)
		.then((file) => {
			large = file.size > largeSourceBytes;
			if (large) prioritise(19);
			return inspectSource(request);
		})
		.then(
			(inspection) => parentPort?.postMessage({ id, inspection }),
			(error: Error) => parentPort?.postMessage({ id, error: error.message }),
		)
		.finally(() => {
			if (large) prioritise(ownPriority);
		});
});
