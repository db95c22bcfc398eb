import { identifyFormat, readableLabels } from './detection';
import { PatternTooLargeError, UnreadableSourceError, UnwritablePatternError } from './errors';
import { formatModules } from './formats';
import type { FormatInfo, FormatModule, WriteResult } from './formats/format';
import { Command, type Pattern } from './pattern';

export { detectFormat, identifyFormat, nameWarning, readableLabels } from './detection';
export type { Identification } from './detection';

export function listFormats(): FormatInfo[] {
	return formatModules.map((module) => ({ ...module.info }));
}

/** The module of a format key, in any case. */
export function findModule(format: string): FormatModule | undefined {
	const key = format.toLowerCase();
	return formatModules.find((module) => module.info.format === key);
}

export function readPattern(bytes: Uint8Array, format?: string): Pattern {
	const identified = format === undefined ? identifyFormat(bytes) : undefined;
	const key = format ?? identified?.format;
	const module = key ? findModule(key) : undefined;
	if (!module?.read) {
		throw new UnreadableSourceError(
			key
				? `The format "${key}" cannot be read.`
				: `The file is not an embroidery machine file this service can read: ${identified?.refusal} ` +
					`(readable: ${readableLabels()}).`,
		);
	}
	let pattern: Pattern;
	try {
		pattern = module.read(bytes);
	} catch (error) {
		if (error instanceof UnreadableSourceError || error instanceof PatternTooLargeError)
			throw error;
		throw new UnreadableSourceError(
			`The ${module.info.label} file is damaged: ${(error as Error).message}`,
		);
	}
	if (!sewsAnything(pattern))
		throw new UnreadableSourceError(
			`The ${module.info.label} file holds no stitches: it has nothing a machine would sew.`,
		);
	return pattern;
}

function sewsAnything(pattern: Pattern): boolean {
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === Command.Stitch) return true;
	return false;
}

export function writePattern(pattern: Pattern, format: string): WriteResult {
	const module = findModule(format);
	if (!module?.write) {
		throw new UnwritablePatternError(`The format "${format}" cannot be written.`);
	}
	return module.write(pattern);
}
