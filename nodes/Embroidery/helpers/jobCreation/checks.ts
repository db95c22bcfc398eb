import { parameterAdvice } from '../../transport';
import type { Workflow } from '../../transport';
import { artworkExtensions, artworkTypeOf } from '../../transport/artworkTypes';
import { formatMegabytes, limits } from '../../transport/serviceLimits';

/** One source file, as described by its item's binary metadata (bytes not read yet). */
export interface SourceFile {
	itemIndex: number;
	propertyName: string;
	fileName: string;
	mimeType: string;
	bytes: number;
	/** Where n8n's binary store keeps the file (filesystem or S3 mode); absent when it is held inline. */
	binaryId?: string;
}

/** What is wrong with a source for this workflow, in words naming the field and item; null when fine. */
export function sourceProblem(source: SourceFile, workflow: Workflow): string | null {
	const where = `binary field "${source.propertyName}" of item ${source.itemIndex}`;
	if (source.bytes <= 0) return `The file "${source.fileName}" in ${where} is empty`;
	if (workflow === 'conversion' && source.bytes > limits.conversionMaxBytes) {
		return (
			`The file "${source.fileName}" in ${where} is ${formatMegabytes(source.bytes)}; ` +
			`conversion accepts at most ${formatMegabytes(limits.conversionMaxBytes)} per file`
		);
	}
	if (workflow === 'digitising') {
		if (source.bytes > limits.artworkMaxBytes) {
			return (
				`The artwork "${source.fileName}" in ${where} is ${formatMegabytes(source.bytes)}; ` +
				`digitising accepts at most ${formatMegabytes(limits.artworkMaxBytes)} per file`
			);
		}
		if (artworkTypeOf(source.fileName, source.mimeType) === null) {
			return (
				`The file "${source.fileName}" (${source.mimeType || 'unknown type'}) in ${where} is ` +
				`not artwork digitising accepts: ${artworkExtensions.join(', ')}`
			);
		}
	}
	return null;
}

export function tooManySourcesProblem(count: number, itemIndex: number): string | null {
	if (count <= limits.maxSourcesPerRequest) return null;
	return (
		`Item ${itemIndex} has ${count} source files; one request takes at ` +
		`most ${limits.maxSourcesPerRequest}. ${parameterAdvice.tooManySources}`
	);
}

/** Checks a number against the spec's bounds; the message names the parameter (the router names the item). */
export function numberProblem(
	label: string,
	value: unknown,
	bounds: { min: number; max: number },
	integer: boolean,
): string | null {
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		return `'${label}' must be a number, got "${String(value)}"`;
	}
	if (integer && !Number.isInteger(value)) {
		return `'${label}' must be a whole number, got ${value}`;
	}
	if (value < bounds.min || value > bounds.max) {
		return `'${label}' must be between ${bounds.min} and ${bounds.max}, got ${value}`;
	}
	return null;
}
