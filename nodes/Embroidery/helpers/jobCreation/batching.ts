import { limits } from '../../transport/serviceLimits';

interface Sized {
	bytes: number;
}

export type BatchingMode = 'perItem' | 'combine';

/**
 * Groups the sources of consecutive items into requests. `perItem`: one request per item.
 * `combine`: as many sources as fit in one request (count and byte cap), in input order.
 */
export function planBatches<T extends Sized>(
	sourcesPerItem: T[][],
	mode: BatchingMode,
	caps: { maxSources: number; maxBytes: number } = {
		maxSources: limits.maxSourcesPerRequest,
		maxBytes: limits.maxBytesPerRequest,
	},
): T[][] {
	const nonEmpty = sourcesPerItem.filter((sources) => sources.length > 0);
	if (mode === 'perItem') return nonEmpty.map((sources) => [...sources]);
	const batches: T[][] = [];
	let current: T[] = [];
	let currentBytes = 0;
	for (const source of nonEmpty.flat()) {
		const full =
			current.length >= caps.maxSources ||
			(current.length > 0 && currentBytes + source.bytes > caps.maxBytes);
		if (full) {
			batches.push(current);
			current = [];
			currentBytes = 0;
		}
		current.push(source);
		currentBytes += source.bytes;
	}
	if (current.length > 0) batches.push(current);
	return batches;
}
