/** Tasks for an engine process (sandbox/services/workers/task.ts), as the job runner sends them. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { JobTask } from '../../../sandbox/services/workers/task';

/**
 * A task whose source (`bytes`, uploaded as `sourceFileName`) is written into `dir`, where its files go
 * too, named after the job; a conversion unless `fields` say otherwise.
 */
export function engineTask(
	dir: string,
	jobId: string,
	bytes: Uint8Array,
	fields: Partial<JobTask> & Pick<JobTask, 'sourceFileName' | 'sourceFormat' | 'format'>,
): JobTask {
	const sourcePath = join(dir, `${jobId}.source`);
	writeFileSync(sourcePath, bytes);
	return {
		jobId,
		workflow: 'conversion',
		sourcePath,
		outputDir: dir,
		outputId: `${jobId}-out`,
		previewId: `${jobId}-preview`,
		watermarkedPreviewId: `${jobId}-watermarked`,
		widthMm: null,
		colourCount: null,
		paletteKey: null,
		maximumStitchCount: null,
		...fields,
	};
}
