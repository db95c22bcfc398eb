import { parentPort } from 'node:worker_threads';

import { inspectSource, type InspectionRequest } from './inspection';

/** Inspection thread body: answers each request with `{ id, inspection }` or `{ id, error }`. */
parentPort?.on('message', ({ id, request }: { id: number; request: InspectionRequest }) => {
	inspectSource(request).then(
		(inspection) => parentPort?.postMessage({ id, inspection }),
		(error: Error) => parentPort?.postMessage({ id, error: error.message }),
	);
});
