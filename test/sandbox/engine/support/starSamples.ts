/** Every shared Star sample, by name, for tests that feed each format's reader every other format's file. */
import { readdirSync } from 'node:fs';

import { fixture, fixturesDir } from '../../../support/embroideryFiles';

export function starSampleNames(): string[] {
	return readdirSync(fixturesDir)
		.filter((name) => name.startsWith('Star.') && !name.endsWith('.json'))
		.sort();
}

/** The samples other than `own`, with their bytes. */
export function otherStarSamples(own: string): Array<{ name: string; bytes: Uint8Array }> {
	return starSampleNames()
		.filter((name) => name !== own)
		.map((name) => ({ name, bytes: new Uint8Array(fixture(name)) }));
}
