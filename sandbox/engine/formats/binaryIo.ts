/**
 * The stitch engine's one byte kit: a bounds-checked cursor for readers and a growable builder
 * for writers, shared by every format.
 */
import { ceilings, outputTooLarge } from '../ceilings';
import { UnreadableSourceError } from '../errors';

const latin1Decoder = new TextDecoder('latin1');

/** Two's-complement value of one byte, for formats that pack moves into single bytes. */
export function signed8(byte: number): number {
	return byte > 127 ? byte - 256 : byte;
}

/** Two's-complement value of a big-endian pair of bytes, for moves packed into two bytes. */
export function signed16(high: number, low: number): number {
	const value = (high << 8) | low;
	return value > 0x7fff ? value - 0x10000 : value;
}

/** True when `bytes` begin with `signature`, one byte per character (a file's magic). */
export function hasSignature(bytes: Uint8Array, signature: string): boolean {
	if (bytes.length < signature.length) return false;
	for (let i = 0; i < signature.length; i++) if (bytes[i] !== signature.charCodeAt(i)) return false;
	return true;
}

/**
 * The unsigned little-endian 32-bit value at `offset`, or null when those four bytes are not all
 * inside `bytes`: for content checks, which must answer false rather than throw.
 */
export function u32leAt(bytes: Uint8Array, offset: number): number | null {
	if (!Number.isInteger(offset) || offset < 0 || offset + 4 > bytes.length) return null;
	return (
		(bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16)) +
		bytes[offset + 3] * 0x1000000
	);
}

/**
 * Bounds-checked reading of a binary embroidery file: every read past the end becomes an
 * UnreadableSourceError naming the format, so damaged files never surface as RangeErrors.
 */
export class ByteCursor {
	position = 0;
	private readonly view: DataView;

	constructor(
		readonly bytes: Uint8Array,
		private readonly formatLabel: string,
	) {
		this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	}

	get length(): number {
		return this.bytes.length;
	}

	get remaining(): number {
		return this.bytes.length - this.position;
	}

	fail(problem: string): never {
		throw new UnreadableSourceError(`The ${this.formatLabel} file is damaged: ${problem}.`);
	}

	seek(position: number): void {
		if (!Number.isInteger(position) || position < 0 || position > this.bytes.length) {
			this.fail(`an offset points outside the file (${position} of ${this.bytes.length} bytes)`);
		}
		this.position = position;
	}

	skip(count: number): void {
		this.seek(this.position + count);
	}

	private take(count: number): number {
		const at = this.position;
		if (count > this.bytes.length - at) this.fail(`it ends early at byte ${this.bytes.length}`);
		this.position = at + count;
		return at;
	}

	u8(): number {
		return this.bytes[this.take(1)];
	}

	i8(): number {
		return this.view.getInt8(this.take(1));
	}

	u16le(): number {
		return this.view.getUint16(this.take(2), true);
	}

	u16be(): number {
		return this.view.getUint16(this.take(2), false);
	}

	i16le(): number {
		return this.view.getInt16(this.take(2), true);
	}

	i16be(): number {
		return this.view.getInt16(this.take(2), false);
	}

	u24le(): number {
		const at = this.take(3);
		return this.bytes[at] | (this.bytes[at + 1] << 8) | (this.bytes[at + 2] << 16);
	}

	u24be(): number {
		const at = this.take(3);
		return (this.bytes[at] << 16) | (this.bytes[at + 1] << 8) | this.bytes[at + 2];
	}

	u32le(): number {
		return this.view.getUint32(this.take(4), true);
	}

	i32le(): number {
		return this.view.getInt32(this.take(4), true);
	}

	u32be(): number {
		return this.view.getUint32(this.take(4), false);
	}

	i32be(): number {
		return this.view.getInt32(this.take(4), false);
	}

	slice(count: number): Uint8Array {
		const at = this.take(count);
		return this.bytes.subarray(at, at + count);
	}

	/** Bytes as Latin-1 text (labels and catalogue numbers are plain ASCII in practice). */
	latin1(count: number): string {
		return latin1Decoder.decode(this.slice(count));
	}
}

/**
 * A growable buffer for writers, with back-patching of lengths and offsets. It doubles its
 * capacity, so a million records stay cheap, and refuses to grow past `ceilings.outputBytes`.
 */
export class ByteBuilder {
	private buffer: Uint8Array;
	private view: DataView;
	length = 0;

	constructor(capacity = 4096) {
		this.buffer = new Uint8Array(capacity);
		this.view = new DataView(this.buffer.buffer);
	}

	private reserve(count: number): number {
		const at = this.length;
		if (at + count > this.buffer.length) {
			if (at + count > ceilings.outputBytes) throw outputTooLarge(at + count);
			const grown = new Uint8Array(
				Math.min(ceilings.outputBytes, Math.max(this.buffer.length * 2, at + count)),
			);
			grown.set(this.buffer.subarray(0, at));
			this.buffer = grown;
			this.view = new DataView(grown.buffer);
		}
		this.length = at + count;
		return at;
	}

	u8(value: number): void {
		const at = this.reserve(1);
		this.buffer[at] = value & 0xff;
	}

	/** Three bytes at once: the record of several formats, written a million times. */
	bytes3(b0: number, b1: number, b2: number): void {
		const at = this.reserve(3);
		this.buffer[at] = b0 & 0xff;
		this.buffer[at + 1] = b1 & 0xff;
		this.buffer[at + 2] = b2 & 0xff;
	}

	u16le(value: number): void {
		const at = this.reserve(2);
		this.view.setUint16(at, value & 0xffff, true);
	}

	u16be(value: number): void {
		const at = this.reserve(2);
		this.view.setUint16(at, value & 0xffff, false);
	}

	u24le(value: number): void {
		const at = this.reserve(3);
		this.buffer[at] = value & 0xff;
		this.buffer[at + 1] = (value >> 8) & 0xff;
		this.buffer[at + 2] = (value >> 16) & 0xff;
	}

	u24be(value: number): void {
		const at = this.reserve(3);
		this.buffer[at] = (value >> 16) & 0xff;
		this.buffer[at + 1] = (value >> 8) & 0xff;
		this.buffer[at + 2] = value & 0xff;
	}

	u32le(value: number): void {
		const at = this.reserve(4);
		this.view.setUint32(at, value >>> 0, true);
	}

	u32be(value: number): void {
		const at = this.reserve(4);
		this.view.setUint32(at, value >>> 0, false);
	}

	f32le(value: number): void {
		const at = this.reserve(4);
		this.view.setFloat32(at, value, true);
	}

	bytes(values: ArrayLike<number>): void {
		const at = this.reserve(values.length);
		this.buffer.set(values, at);
	}

	fill(value: number, count: number): void {
		const at = this.reserve(count);
		this.buffer.fill(value, at, at + count);
	}

	/** Pads with `value` until the buffer is `size` bytes long. */
	padTo(size: number, value = 0): void {
		if (size > this.length) this.fill(value, size - this.length);
	}

	/** ASCII text; characters outside Latin-1 become '?'. */
	ascii(text: string): void {
		const at = this.reserve(text.length);
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			this.buffer[at + i] = code < 256 ? code : 0x3f;
		}
	}

	patchU32le(at: number, value: number): void {
		this.view.setUint32(at, value >>> 0, true);
	}

	patchU32be(at: number, value: number): void {
		this.view.setUint32(at, value >>> 0, false);
	}

	patchU24le(at: number, value: number): void {
		this.buffer[at] = value & 0xff;
		this.buffer[at + 1] = (value >> 8) & 0xff;
		this.buffer[at + 2] = (value >> 16) & 0xff;
	}

	patchU16le(at: number, value: number): void {
		this.view.setUint16(at, value & 0xffff, true);
	}

	/** Drop everything written after `length` (a section that turned out not to fit). */
	truncate(length: number): void {
		this.length = Math.min(this.length, length);
	}

	toBytes(): Uint8Array {
		return this.buffer.slice(0, this.length);
	}
}
