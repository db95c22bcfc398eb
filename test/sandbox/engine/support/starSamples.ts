/**
 * The shared Star samples (test/fixtures/embroidery), by name and with their bytes: every test and benchmark
 * that damages, splices or cross-reads them loads them here. And the seeded random numbers those use, so
 * every run changes the same bytes.
 */
import { readdirSync } from 'node:fs';

import { fixture, fixturesDir } from '../../../support/embroideryFiles';

export function starSampleNames(): string[] {
	return readdirSync(fixturesDir)
		.filter((name) => name.startsWith('Star.') && !name.endsWith('.json'))
		.sort();
}

/** One shared sample's bytes, a fresh copy to change. */
export function sharedSample(name: string): Uint8Array {
	return new Uint8Array(fixture(name));
}

/** Every shared sample, by name, with its bytes. */
export function sharedSamples(): Array<{ name: string; bytes: Uint8Array }> {
	return starSampleNames().map((name) => ({ name, bytes: sharedSample(name) }));
}

/** The samples other than `own`, with their bytes. */
export function otherStarSamples(own: string): Array<{ name: string; bytes: Uint8Array }> {
	return sharedSamples().filter(({ name }) => name !== own);
}

/** mulberry32: numbers in [0, 1) from a seed, the same every run. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
