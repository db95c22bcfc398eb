import { PatternTooLargeError, UnreadableSourceError, UnwritablePatternError } from './errors';
import { formatModules } from './formats';
import type { FormatInfo, FormatModule, WriteResult } from './formats/format';
import type { Pattern } from './pattern';

export function listFormats(): FormatInfo[] {
	return formatModules.map((module) => ({ ...module.info }));
}

/** The module of a format key, in any case. */
export function findModule(format: string): FormatModule | undefined {
	const key = format.toLowerCase();
	return formatModules.find((module) => module.info.format === key);
}

function accepts(module: FormatModule, bytes: Uint8Array): boolean {
	try {
		return Boolean(module.read && module.detect?.(bytes));
	} catch {
		// A content check that trips over damaged bytes has not recognised them.
		return false;
	}
}

/**
 * The format of an embroidery file, judged by content. The file name's extension is only a hint:
 * it chooses between formats whose checks are equally strong, never over a stronger match.
 */
export function detectFormat(bytes: Uint8Array, fileName?: string): string | null {
	const candidates = formatModules.filter((module) => accepts(module, bytes));
	if (candidates.length === 0) return null;
	const strongest = Math.max(...candidates.map((module) => module.detectionStrength));
	const best = candidates.filter((module) => module.detectionStrength === strongest);
	const extension = fileName?.toLowerCase().split('.').pop();
	const hinted = best.find((module) => module.info.extension === extension);
	return (hinted ?? best[0]).info.format;
}

export function readPattern(bytes: Uint8Array, format?: string): Pattern {
	const key = format ?? detectFormat(bytes);
	const module = key ? findModule(key) : undefined;
	if (!module?.read) {
		const readable = formatModules
			.filter((candidate) => candidate.read)
			.map((candidate) => candidate.info.label);
		throw new UnreadableSourceError(
			key
				? `The format "${key}" cannot be read.`
				: `The file is not an embroidery machine file this service can read (readable: ${readable.join(', ')}).`,
		);
	}
	try {
		return module.read(bytes);
	} catch (error) {
		if (error instanceof UnreadableSourceError || error instanceof PatternTooLargeError)
			throw error;
		throw new UnreadableSourceError(
			`The ${module.info.label} file is damaged: ${(error as Error).message}`,
		);
	}
}

export function writePattern(pattern: Pattern, format: string): WriteResult {
	const module = findModule(format);
	if (!module?.write) {
		throw new UnwritablePatternError(`The format "${format}" cannot be written.`);
	}
	return module.write(pattern);
}
