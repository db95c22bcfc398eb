/** The numbers a Tajima-style 512-byte text header states (DST, DSB, DSZ, TBF), to check readings against. */
import { Command, type Pattern } from '../../../../sandbox/engine/pattern';
import { patternBounds } from '../../../../sandbox/engine/normalise';

/** The header's `KEY:value` fields as numbers (`+X`, `-Y`, `ST`, `CO`...), from `offset` on. */
export function headerNumbers(bytes: Uint8Array, offset = 0): Record<string, number> {
	const text = Buffer.from(bytes.subarray(offset, offset + 512)).toString('latin1');
	const fields: Record<string, number> = {};
	for (const match of text.matchAll(/([A-Z+-][A-Z]):([+-]?) *(\d+)\r/g))
		fields[match[1]] = Number(match[2] + match[3]);
	return fields;
}

/** The extents a header states, as [minX, minY, maxX, maxY] in 0.1 mm with y down (+Y is up). */
export function statedExtents(fields: Record<string, number>): number[] {
	return [-fields['-X'], -fields['+Y'], fields['+X'], fields['-Y']];
}

/** The extents of a reading, in the same order as `statedExtents`. */
export function readExtents(pattern: Pattern): number[] {
	const bounds = patternBounds(pattern);
	return [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY];
}

/** The stitch positions of a reading, as "x,y" strings in order. */
export function stitchPoints(pattern: Pattern): string[] {
	const points: string[] = [];
	for (let i = 0; i < pattern.length; i++)
		if (pattern.commands[i] === Command.Stitch) points.push(`${pattern.xs[i]},${pattern.ys[i]}`);
	return points;
}
