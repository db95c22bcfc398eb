import type { DigitisingOptions } from '../../domain/jobs';

/** The argument with which the pool asks an engine process to warm up before it takes jobs (warmUp.ts). */
export const warmUpArgument = '--warm-up';

/** One job's work as sent to a worker process (pool.ts forks them): plain data only, paths absolute. */
export interface JobTask extends DigitisingOptions {
	jobId: string;
	workflow: 'conversion' | 'digitising';
	sourcePath: string;
	/** The name the source was uploaded with: a conversion warns where it names another format. */
	sourceFileName: string;
	sourceFormat: string;
	format: string;
	/** Folder the results are written into, named `<upload id>.<extension>`. */
	outputDir: string;
	outputId: string;
	previewId: string;
	watermarkedPreviewId: string;
	/** Fault injection: the worker process allocates until its memory ceiling ends it. */
	exhaustMemory?: boolean;
}

export interface WrittenFile {
	id: string;
	fileName: string;
	extension: string;
	mimeType: string;
	size: number;
	checksum: string;
}

export type TaskResult =
	| {
			ok: true;
			metrics: Record<string, unknown> | null;
			warnings: string[];
			output: WrittenFile;
			preview: WrittenFile;
			watermarkedPreview: WrittenFile;
	  }
	| { ok: false; failureCode: string; failureReason: string; warnings: string[] };
