/**
 * Which format an uploaded machine file is. A format with a magic (detection strength 3) claims a file
 * its check accepts, whatever the file's name; a format without one fits only where nothing with a magic
 * claims the file, its reader takes the whole file and the file's name names it (a colour list or an
 * unknown format named .inf or .t03 can pass as EXP records); a file that fits none, or not the format
 * its name says, is refused rather than guessed.
 */
import { PatternTooLargeError } from './errors';
import { formatModules } from './formats';
import type { FormatModule } from './formats/format';

/** What a file is: a format (with a warning where its name says another), or why it is refused. */
export type Identification =
	| { format: string; warning: string | null; refusal?: undefined }
	| { format: null; warning?: undefined; refusal: string };

const readable = (): FormatModule[] =>
	formatModules.filter((module) => module.read && module.detect);

function accepts(module: FormatModule, bytes: Uint8Array): boolean {
	try {
		return Boolean(module.detect!(bytes));
	} catch {
		// A content check that trips over damaged bytes has not recognised them.
		return false;
	}
}

/**
 * A format without a magic fits only a file its reader reads to the end; returns why it does not, or
 * null when it fits.
 */
function misfit(module: FormatModule, bytes: Uint8Array): string | null {
	try {
		module.read!(bytes);
		return null;
	} catch (error) {
		// Every record fitted up to a ceiling: it is this format, too large to convert (the job says so).
		if (error instanceof PatternTooLargeError) return null;
		return error instanceof Error ? error.message : String(error);
	}
}

function extensionOf(fileName: string | undefined): string | undefined {
	const dot = fileName?.lastIndexOf('.') ?? -1;
	return dot < 0 ? undefined : fileName!.slice(dot + 1).toLowerCase();
}

/** The formats a file name's extension names (none when it names no known format). */
function namedFormats(fileName: string | undefined): FormatModule[] {
	const extension = extensionOf(fileName);
	return formatModules.filter((module) => module.info.extension.toLowerCase() === extension);
}

const labels = (modules: FormatModule[]) => modules.map((module) => module.info.label).join(' or ');

/** The job warning for a file read as `format` whose name says another known format, or null. */
export function nameWarning(fileName: string, format: string): string | null {
	const named = namedFormats(fileName);
	if (named.length === 0 || named.some((module) => module.info.format === format)) return null;
	const content = formatModules.find((module) => module.info.format === format);
	return (
		`${fileName} is named as ${labels(named)}, but its content is ${content?.info.label ?? format}: ` +
		`it was read as ${content?.info.label ?? format}.`
	);
}

/** The format of an embroidery file by its content, with its name as the tie-break; see the file's header. */
export function identifyFormat(bytes: Uint8Array, fileName?: string): Identification {
	const modules = readable();
	const named = namedFormats(fileName);
	const claims = modules.filter(
		(module) => module.detectionStrength === 3 && accepts(module, bytes),
	);
	if (claims.length > 0) {
		const format = (claims.find((module) => named.includes(module)) ?? claims[0]).info.format;
		return { format, warning: fileName ? nameWarning(fileName, format) : null };
	}
	const { fits, misfits } = fitsWithoutMagic(modules, bytes);
	const fit = chosenFit(fits, named, fileName);
	if (fit) return { format: fit.info.format, warning: null };
	return { format: null, refusal: refusal(named, fits, misfits) };
}

/** The fitting format a file's name names; a nameless file (the engine's own callers) takes a sole fit. */
function chosenFit(
	fits: FormatModule[],
	named: FormatModule[],
	fileName: string | undefined,
): FormatModule | undefined {
	if (fileName === undefined) return fits.length === 1 ? fits[0] : undefined;
	return fits.find((module) => named.includes(module));
}

/** The formats without a magic that read the whole file, and why each other one that looked did not. */
function fitsWithoutMagic(modules: FormatModule[], bytes: Uint8Array) {
	const fits: FormatModule[] = [];
	const misfits = new Map<FormatModule, string>();
	for (const module of modules) {
		if (module.detectionStrength === 3 || !accepts(module, bytes)) continue;
		const why = misfit(module, bytes);
		if (why === null) fits.push(module);
		else misfits.set(module, why.replace(/\.$/, ''));
	}
	return { fits, misfits };
}

/** Why a file is refused, in words that follow its name: "Star.exp is not a readable ... file: <this>". */
function refusal(
	named: FormatModule[],
	fits: FormatModule[],
	misfits: Map<FormatModule, string>,
): string {
	const tried = named.find((module) => misfits.has(module));
	if (tried)
		return `its name says ${tried.info.label}, but it does not read as one: ${misfits.get(tried)}`;
	if (named.length > 0)
		return (
			`its name says ${labels(named)}, but its content is not ${labels(named)}` +
			(fits.length > 0 ? ` (it would read as ${labels(fits)})` : '')
		);
	if (fits.length > 0)
		return (
			`its content has no signature and could be ${labels(fits)}, but its name does not say so: give ` +
			`the file its machine's extension (${fits.map((module) => `.${module.info.extension}`).join(' or ')})`
		);
	const tries = [...misfits].map(([module, why]) => `as ${module.info.label}: ${why}`);
	return (
		'its content fits none of the formats this service reads' +
		(tries.length > 0 ? ` (${tries.join('; ')})` : '')
	);
}

/** The format key of an embroidery file, or null when it is refused; see `identifyFormat`. */
export function detectFormat(bytes: Uint8Array, fileName?: string): string | null {
	return identifyFormat(bytes, fileName).format;
}

/** The formats the service reads, by label, for a refusal to list. */
export function readableLabels(): string {
	return readable()
		.map((module) => module.info.label)
		.join(', ');
}
