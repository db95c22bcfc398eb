/**
 * Machine files of the formats that have no shared sample (JPX, EXY, NEW, STC, PCD, PCQ, PCM, FXY, EMD), built
 * from the layout their real files show or their description (public files kept out of the repository): for
 * their tests, and as the fuzz bench's seeds, Star.DST's design in each of them.
 */
import { patternBounds } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { readPattern } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';

export interface JpxThread {
	rgb: [number, number, number];
	catalog: number;
	name: string;
}

/**
 * A JPX file: stitch offset, date, colour count, Janome chart codes and thread types, the thread table
 * (when given), then JEF's records.
 */
export function jpxFile(codes: number[], records: number[], threads?: JpxThread[]): Buffer {
	const head = Buffer.alloc(0x3c + 8 * codes.length);
	head.write('20260502220831', 0x10, 'latin1');
	head.writeUInt32LE(codes.length, 0x20);
	codes.forEach((code, i) => {
		head.writeUInt32LE(code, 0x3c + 4 * i);
		head.writeUInt32LE(13, 0x3c + 4 * codes.length + 4 * i);
	});
	const parts = [head];
	if (threads) {
		const table = Buffer.alloc(4 + 44 * threads.length + 16);
		table.writeUInt32LE(threads.length, 0);
		threads.forEach((thread, i) => {
			const at = 4 + 44 * i;
			table.writeUInt32LE(i, at);
			table.set([...thread.rgb, 0x09], at + 4);
			table.writeUInt32LE(thread.catalog, at + 8);
			table.write(thread.name, at + 12, 'latin1');
		});
		table.write('JANOME', 4 + 44 * threads.length, 'latin1');
		parts.push(table);
	}
	const file = Buffer.concat([...parts, Buffer.from(records)]);
	file.writeUInt32LE(file.length - records.length, 0);
	return file;
}

/** An EXY file: 128 filler bytes, the extents at 0x80, zeros to 256, then a DST file's records. */
export function exyFile(dst: Uint8Array, extents?: [number, number, number, number]): Buffer {
	const bounds = patternBounds(readPattern(dst, 'dst'));
	const header = Buffer.alloc(256);
	header.fill(0x30, 0, 128);
	const [minX, minY, maxX, maxY] = extents ?? [
		bounds.minX,
		-bounds.maxY,
		bounds.maxX,
		-bounds.minY,
	];
	[minX, minY, maxX, maxY].forEach((value, i) => header.writeInt16LE(value, 0x80 + 2 * i));
	return Buffer.concat([header, Buffer.from(dst.subarray(512))]);
}

/** A NEW file: the count of records before the end, the [|dx|, |dy|, flags] records, two end records. */
export function newFile(records: number[][], count = records.length): Buffer {
	const head = Buffer.alloc(2);
	head.writeUInt16LE(count, 0);
	return Buffer.concat([head, Buffer.from([...records.flat(), 0, 0, 0x91, 0, 0, 0x91])]);
}

/**
 * An STC file: the 40-byte text header with the count of records up to the first end, the [dx, dy, code]
 * records, two end records.
 */
export function stcFile(records: number[][], count = records.length + 1): Buffer {
	const header = Buffer.alloc(40, 0x20);
	header.write(`DESIGN:square\tSTITCHES: ${String(count).padStart(5)}\n\r\0`, 0, 'latin1');
	return Buffer.concat([header, Buffer.from([...records.flat(), 0, 0, 25, 0, 0, 25])]);
}

type Move = { kind: 'stitch' | 'jump' | 'trim' | 'colour'; dx: number; dy: number };

/** Star.DST's design as relative moves (y up, as these formats store it); DST's moves fit one byte. */
function starMoves(): Move[] {
	const pattern = readPattern(fixture('Star.DST'), 'dst');
	const moves: Move[] = [];
	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		const dx = pattern.xs[i] - x;
		const dy = y - pattern.ys[i];
		x = pattern.xs[i];
		y = pattern.ys[i];
		if (command === Command.Stitch) moves.push({ kind: 'stitch', dx, dy });
		else if (command === Command.Jump) moves.push({ kind: 'jump', dx, dy });
		else if (command === Command.Trim) moves.push({ kind: 'trim', dx, dy });
		else if (command === Command.ColorChange) moves.push({ kind: 'colour', dx, dy });
	}
	return moves;
}

/**
 * Star.PCS as the other members of the Pfaff Creative family: with PCD's hoop code 0 or PCQ's 1, or as PCM,
 * big-endian with its colours as places 0-15 of PCM's chart (Star.PCS lists exactly that chart's colours).
 */
export function pfaffStar(format: 'pcd' | 'pcq' | 'pcm'): Buffer {
	const pcs = fixture('Star.PCS');
	if (format !== 'pcm') {
		const copy = Buffer.from(pcs);
		copy[1] = format === 'pcd' ? 0 : 1;
		return copy;
	}
	const colours = pcs.readUInt16LE(2);
	const recordsAt = 4 + 4 * colours + 2;
	const head = Buffer.alloc(4 + 2 * colours + 2);
	head.set(pcs.subarray(0, 2));
	head.writeUInt16BE(colours, 2);
	for (let place = 0; place < colours; place++) head.writeUInt16BE(place, 4 + 2 * place);
	head.writeUInt16BE(pcs.readUInt16LE(recordsAt - 2), 4 + 2 * colours);
	const records = Buffer.from(pcs.subarray(recordsAt));
	for (let at = 0; at + 9 <= records.length; at += 9) {
		records.writeInt32BE(records.readInt32LE(at), at);
		records.writeInt32BE(records.readInt32LE(at + 4), at + 4);
	}
	return Buffer.concat([head, records]);
}

/** An FXY file: a 256-byte header (none of it read), then ZSK's records as DSZ holds them after its 512. */
export function fxyFile(records: Uint8Array = fixture('Star.DSZ').subarray(512)): Uint8Array {
	const bytes = new Uint8Array(256 + records.length);
	bytes.set(records, 256);
	return bytes;
}

/**
 * Star.EXP rewritten record by record as EMD lays records out: the same 2-byte stitches, EXP's colour change
 * as 0x80 0x2A plus a move, its jumps as 0x80 0x80 moves, its trims as 0x80 0xAD, after a 48-byte header and
 * before the end command.
 */
export function emdStar(): Uint8Array {
	const exp = fixture('Star.EXP');
	const out: number[] = new Array(0x30).fill(0);
	for (let offset = 0; offset + 2 <= exp.length; ) {
		const [b0, b1, b2, b3] = exp.subarray(offset, offset + 4);
		if (b0 !== 0x80) {
			out.push(b0, b1);
			offset += 2;
			continue;
		}
		if (b1 === 0x01) out.push(0x80, 0x2a, 0x80, 0x80, b2, b3);
		else if (b1 === 0x80) out.push(0x80, 0xad);
		else out.push(0x80, 0x80, b2, b3);
		offset += 4;
	}
	out.push(0x80, 0xfd);
	return new Uint8Array(out);
}

const byte = (value: number) => value & 0xff;
const newSigns = (dx: number, dy: number) => 0x80 | (dx < 0 ? 0x40 : 0) | (dy < 0 ? 0x20 : 0);

/** Star.DST's design written in each format without a shared sample, named as such a file would be. */
export function builtStars(): Array<{ name: string; bytes: Uint8Array }> {
	const moves = starMoves();
	const jpxRecords = moves.flatMap(({ kind, dx, dy }) =>
		kind === 'stitch'
			? [byte(dx), byte(dy)]
			: kind === 'jump'
				? [0x80, 0x02, byte(dx), byte(dy)]
				: kind === 'colour'
					? [0x80, 0x01, byte(dx), byte(dy)]
					: [],
	);
	let needle = 1;
	const newRecords = moves.map(({ kind, dx, dy }) =>
		kind === 'trim'
			? [0, 0, 0x9b]
			: kind === 'colour'
				? [0, 0, 0x81 + 2 * (needle = (needle % 15) + 1)]
				: [Math.abs(dx), Math.abs(dy), newSigns(dx, dy) | (kind === 'jump' ? 0x01 : 0)],
	);
	const stcRecords = moves.flatMap(({ kind, dx, dy }) =>
		kind === 'trim' ? [] : [[byte(dx), byte(dy), kind === 'stitch' ? 1 : kind === 'jump' ? 0 : 3]],
	);
	return [
		{
			name: 'Star.jpx',
			bytes: jpxFile(
				[33, 51],
				[...jpxRecords, 0x80, 0x10],
				[
					{ rgb: [0xe3, 0x31, 0x1f], catalog: 235, name: 'Burnt Orange' },
					{ rgb: [0xff, 0xff, 0xf2], catalog: 253, name: 'Ivory White' },
				],
			),
		},
		{ name: 'Star.exy', bytes: exyFile(fixture('Star.DST')) },
		{ name: 'Star.new', bytes: newFile(newRecords) },
		{ name: 'Star.stc', bytes: stcFile(stcRecords) },
		{ name: 'Star.pcd', bytes: pfaffStar('pcd') },
		{ name: 'Star.pcq', bytes: pfaffStar('pcq') },
		{ name: 'Star.pcm', bytes: pfaffStar('pcm') },
		{ name: 'Star.fxy', bytes: fxyFile() },
		{ name: 'Star.emd', bytes: emdStar() },
	];
}
