/**
 * Damaged and crafted files are refused, never completed as garbage (issue 40): a reader checks the design
 * against what its header declares, and a file whose magic is one format's and whose body is another's is
 * refused. Every case is a shared sample mutated here, with fixed positions or a fixed seed.
 */
import { identifyFormat, readPattern } from '../../../sandbox/engine';
import { shareOf, stepsOf } from './support/needlePath';
import { seededRandom, sharedSample as sample } from './support/starSamples';

function concat(...parts: Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

/** The job path's reading: detection by content and name, then the read; null when refused. */
function jobReading(bytes: Uint8Array, name: string) {
	const format = identifyFormat(bytes, name).format;
	if (format === null) return null;
	try {
		return readPattern(bytes, format);
	} catch (error) {
		if ((error as Error).constructor.name === 'UnreadableSourceError') return null;
		throw error;
	}
}

describe('a file whose magic is one format and whose body another is refused', () => {
	it("HUS's first 128 bytes over an SHV body", () => {
		const shv = sample('Star.SHV');
		const bytes = concat(sample('Star.HUS').subarray(0, 128), shv.subarray(128));
		expect(jobReading(bytes, 'Star.HUS')).toBeNull();
	});

	it('an "LA:S" prefix on Star.10O named .dst (read as DSZ before)', () => {
		const bytes = concat(new TextEncoder().encode('LA:S'), sample('Star.10O'));
		expect(jobReading(bytes, 'Star.dst')).toBeNull();
	});

	it("DSB's Tajima header before Star.10O's records, which read as Barudan's and wander past its extents", () => {
		const bytes = concat(sample('Star.DSB').subarray(0, 128), sample('Star.10O'));
		expect(jobReading(bytes, 'Star.DSB')).toBeNull();
	});

	it("JEF's header over Star.DSZ, which reads as JEF stitches far past the declared extents", () => {
		const bytes = concat(sample('Star.JEF').subarray(0, 151), sample('Star.DSZ').subarray(151));
		expect(jobReading(bytes, 'Star.JEF')).toBeNull();
	});

	it("STX's header before and over Star.PCS", () => {
		const stx = sample('Star.STX');
		const pcs = sample('Star.PCS');
		expect(jobReading(concat(stx.subarray(0, 64), pcs), 'Star.STX')).toBeNull();
		expect(jobReading(concat(stx.subarray(0, 64), pcs.subarray(64)), 'Star.STX')).toBeNull();
	});
});

describe.each(['Star.HUS', 'Star.phb', 'Star.phc', 'Star.DST', 'Star.DSZ'])(
	'%s with one to three bytes changed',
	(name) => {
		it('is refused or read right: never completed with less than 99% of its path', () => {
			const bytes = sample(name);
			const source = stepsOf(readPattern(bytes, identifyFormat(bytes, name).format!));
			const random = seededRandom(40);
			const wrong: string[] = [];
			for (let version = 0; version < 25; version++) {
				const changed = bytes.slice();
				const at: number[] = [];
				for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
					const where = Math.floor(random() * changed.length);
					changed[where] ^= 1 + Math.floor(random() * 255);
					at.push(where);
				}
				const pattern = jobReading(changed, name);
				if (pattern === null) continue;
				const share = shareOf(source, stepsOf(pattern), false);
				if (share < 0.99) wrong.push(`${at.join(', ')}: ${(share * 100).toFixed(1)}%`);
			}
			expect(wrong).toEqual([]);
		});
	},
);
