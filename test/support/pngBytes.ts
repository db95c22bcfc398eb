/** PNG files built byte by byte, for artwork whose header says one thing and whose rows another. */
import { crc32 } from 'node:zlib';

/**
 * An 8-bit RGB PNG of `width` x `height` pixels as its header declares them, with `rows` (the IDAT chunk's
 * compressed scanlines) as given: whole, or far fewer than the header promises.
 */
export function rgbPng(width: number, height: number, rows: Buffer): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // RGB
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', rows),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

function chunk(type: string, data: Buffer): Buffer {
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}
