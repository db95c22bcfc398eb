/**
 * HUS and VIP files built from the formats' documented layout, for what the Star samples do not show:
 * a bit writer for Husqvarna's compressed streams, a stream of plain literals, and a whole HUS file.
 */

/** Writes bits most significant first, as the compressed streams are read. */
export class BitWriter {
	private readonly bits: number[] = [];

	write(value: number, count: number): this {
		for (let bit = count - 1; bit >= 0; bit--) this.bits.push(Math.floor(value / 2 ** bit) % 2);
		return this;
	}

	/** A block header whose token code gives every byte its own 8-bit code and whose distance code is unused. */
	literalBlock(tokens: number): this {
		// 16-bit token count; a one-symbol code-length table (symbol 10 = length 8) used for 256 tokens;
		// a one-symbol distance table.
		return this.write(tokens, 16).write(0, 5).write(10, 5).write(256, 9).write(0, 5).write(0, 5);
	}

	/** A block whose token table names the single `token` and whose distance table the single `bitLength`. */
	singleTokenBlock(tokens: number, token: number, bitLength: number): this {
		return this.write(tokens, 16)
			.write(0, 5)
			.write(0, 5)
			.write(0, 9)
			.write(token, 9)
			.write(0, 5)
			.write(bitLength, 5);
	}

	bytes(): Uint8Array {
		const out = new Uint8Array(Math.ceil(this.bits.length / 8));
		this.bits.forEach((bit, index) => {
			if (bit) out[index >> 3] |= 0x80 >> (index & 7);
		});
		return out;
	}
}

/** `values` as one compressed stream of literal tokens, in blocks of at most 65,535. */
export function literalStream(values: ArrayLike<number>): Uint8Array {
	const writer = new BitWriter();
	for (let start = 0; start < values.length; start += 0xffff) {
		const end = Math.min(values.length, start + 0xffff);
		writer.literalBlock(end - start);
		for (let i = start; i < end; i++) writer.write(values[i] & 0xff, 8);
	}
	return writer.bytes();
}

export interface HusRecord {
	command: number;
	/** Move in 0.1 mm, y up as the file stores it. */
	dx: number;
	dy: number;
}

const u32 = (value: number) => [
	value & 0xff,
	(value >> 8) & 0xff,
	(value >> 16) & 0xff,
	value >>> 24,
];
const u16 = (value: number) => [value & 0xff, (value >> 8) & 0xff];

/** A HUS file holding `records`, its colours as places in Husqvarna's chart; `streams` replaces the compressed ones. */
export function husFile(
	records: HusRecord[],
	chartPlaces: number[],
	streams?: { commands?: Uint8Array; xs?: Uint8Array; ys?: Uint8Array; stitchCount?: number },
): Uint8Array {
	const commands = streams?.commands ?? literalStream(records.map((record) => record.command));
	const xs = streams?.xs ?? literalStream(records.map((record) => record.dx));
	const ys = streams?.ys ?? literalStream(records.map((record) => record.dy));
	const commandOffset = 42 + 2 * chartPlaces.length;
	// The extents the header declares: where the records take the needle (y up), as writers compute them.
	let x = 0;
	let y = 0;
	const extents = { maxX: -Infinity, maxY: -Infinity, minX: Infinity, minY: Infinity };
	for (const record of records) {
		if (record.command === 0x90) break;
		x += record.dx;
		y += record.dy;
		extents.maxX = Math.max(extents.maxX, x);
		extents.maxY = Math.max(extents.maxY, y);
		extents.minX = Math.min(extents.minX, x);
		extents.minY = Math.min(extents.minY, y);
	}
	const xOffset = commandOffset + commands.length;
	const yOffset = xOffset + xs.length;
	return new Uint8Array([
		...u32(0x00c8fc5d),
		...u32(streams?.stitchCount ?? records.length),
		...u32(chartPlaces.length),
		...[extents.maxX, extents.maxY, extents.minX, extents.minY].flatMap(u16),
		...u32(commandOffset),
		...u32(xOffset),
		...u32(yOffset),
		...Buffer.from('\0'.repeat(8), 'latin1'),
		...u16(0),
		...chartPlaces.flatMap(u16),
		...commands,
		...xs,
		...ys,
	]);
}
