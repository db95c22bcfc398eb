import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { digitise } from '../../digitiser';
import { widthMmBounds } from '../../domain/jobs';
import {
	hoopWarning,
	listFormats,
	nameWarning,
	readPattern,
	writePattern,
	measurePattern,
	type Pattern,
} from '../../engine';
import { previewPairOf } from './recentPreviews';
import type { JobTask, TaskResult, WrittenFile } from './task';

/**
 * A failure with an API failure code (`failureCode`, or `code` in older errors), from the engine,
 * the digitiser or this pipeline.
 */
interface CodedError {
	failureCode?: unknown;
	code?: unknown;
	message: string;
}

/**
 * Runs one job start to finish: source -> pattern -> machine file, metrics and both previews.
 * Runs inside an engine process (workers/worker.ts); touches only the files named in the task.
 */
export async function processJob(task: JobTask): Promise<TaskResult> {
	const warnings: string[] = [];
	try {
		const source = await readFile(task.sourcePath);
		const digitised: Record<string, unknown> = {};
		const pattern = await patternFor(task, source, warnings, digitised);
		const metrics = measurePattern(pattern);
		if (task.maximumStitchCount !== null && metrics.stitchCount > task.maximumStitchCount) {
			return failure(
				'stitch_limit_exceeded',
				`The design has ${metrics.stitchCount} stitches, more than the maximum_stitch_count ` +
					`of ${task.maximumStitchCount}.`,
				warnings,
			);
		}
		const written = writePattern(pattern, task.format);
		warnings.push(...written.warnings);
		const tooLarge = hoopWarning(
			task.format,
			metrics.widthMm,
			metrics.heightMm,
			task.workflow === 'digitising' ? { smallestWidthMm: widthMmBounds.min } : null,
		);
		if (tooLarge) warnings.push(tooLarge);
		const info = listFormats().find((format) => format.format === task.format);
		const output = await store(
			task,
			task.outputId,
			written.bytes,
			info?.extension ?? task.format,
			info?.mimeType ?? 'application/octet-stream',
		);
		const { original, watermarked } = await previewPairOf(pattern);
		return {
			ok: true,
			metrics: {
				...metrics,
				...digitised,
				sourceFormat: task.sourceFormat,
				outputFormat: task.format,
			},
			warnings,
			output,
			preview: await store(
				task,
				task.previewId,
				original.bytes,
				original.extension,
				original.mimeType,
			),
			watermarkedPreview: await store(
				task,
				task.watermarkedPreviewId,
				watermarked.bytes,
				watermarked.extension,
				watermarked.mimeType,
			),
		};
	} catch (error) {
		const { failureCode, code, message } = error as CodedError;
		const known = typeof failureCode === 'string' ? failureCode : code;
		if (typeof known === 'string' && /^[a-z_]+$/.test(known))
			return failure(known, message, warnings);
		return failure('engine_error', `The engine stopped unexpectedly: ${message}`, warnings);
	}
}

/**
 * The source's pattern; a digitising job's own figures (requested width, density, jumps and trims
 * per colour) go to `digitised`.
 */
async function patternFor(
	task: JobTask,
	source: Buffer,
	warnings: string[],
	digitised: Record<string, unknown>,
): Promise<Pattern> {
	if (task.workflow === 'conversion') {
		const misnamed = nameWarning(task.sourceFileName, task.sourceFormat);
		if (misnamed) warnings.push(misnamed);
		const pattern = readPattern(source, task.sourceFormat);
		warnings.push(...pattern.warnings);
		return pattern;
	}
	const result = await digitise(source, {
		widthMm: task.widthMm!,
		colourCount: task.colourCount!,
		paletteKey: task.paletteKey ?? undefined,
		maxStitchCount: task.maximumStitchCount ?? undefined,
	});
	warnings.push(...result.warnings);
	Object.assign(digitised, result.metrics);
	return result.pattern;
}

async function store(
	task: JobTask,
	id: string,
	bytes: Uint8Array,
	extension: string,
	mimeType: string,
): Promise<WrittenFile> {
	const fileName = `${id}.${extension}`;
	await writeFile(join(task.outputDir, fileName), bytes);
	return {
		id,
		fileName,
		extension,
		mimeType,
		size: bytes.byteLength,
		checksum: createHash('sha256').update(bytes).digest('hex'),
	};
}

function failure(failureCode: string, failureReason: string, warnings: string[]): TaskResult {
	return { ok: false, failureCode, failureReason, warnings };
}
