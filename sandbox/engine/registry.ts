import { formatModules } from './formats';
import type { FormatInfo, FormatModule, WriteResult } from './formats/format';
import { UnreadableSourceError, UnwritablePatternError } from './formats/format';
import type { Pattern } from './pattern';

export function listFormats(): FormatInfo[] {
	return formatModules.map((module) => ({ ...module.info }));
}

function findModule(format: string): FormatModule | undefined {
	const key = format.toLowerCase();
	return formatModules.find((module) => module.info.format === key);
}

/**
 * The format of an embroidery file, judged by content. The file name's extension only
 * breaks ties between formats whose content checks both accept (headerless formats).
 */
export function detectFormat(bytes: Uint8Array, fileName?: string): string | null {
	const candidates = formatModules.filter((module) => module.read && module.detect?.(bytes));
	if (candidates.length === 0) return null;
	const extension = fileName?.toLowerCase().split('.').pop();
	const hinted = candidates.find((module) => module.info.extension === extension);
	return (hinted ?? candidates[0]).info.format;
}

export function readPattern(bytes: Uint8Array, format?: string): Pattern {
	const key = format ?? detectFormat(bytes);
	const module = key ? findModule(key) : undefined;
	if (!module?.read) {
		throw new UnreadableSourceError('The file is not in a readable embroidery format.');
	}
	try {
		return module.read(bytes);
	} catch (error) {
		if (error instanceof UnreadableSourceError) throw error;
		throw new UnreadableSourceError(`The ${module.info.label} file is damaged: ${(error as Error).message}`);
	}
}

export function writePattern(pattern: Pattern, format: string): WriteResult {
	const module = findModule(format);
	if (!module?.write) {
		throw new UnwritablePatternError(`The format "${format}" cannot be written.`);
	}
	return module.write(pattern);
}
