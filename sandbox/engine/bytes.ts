import { UnreadableSourceError } from './formats/format';

/** Two's-complement value of one byte. */
export function signed8(byte: number): number {
	return byte > 127 ? byte - 256 : byte;
}

/**
 * Bounds-checked little/big-endian reads over a file's bytes. Every read past the end
 * throws UnreadableSourceError, so a truncated file fails cleanly instead of yielding garbage.
 */
export class ByteReader {
	private readonly view: DataView;

	constructor(readonly bytes: Uint8Array) {
		this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	}

	get length(): number {
		return this.bytes.length;
	}

	private need(offset: number, size: number, what: string): void {
		if (!Number.isInteger(offset) || offset < 0 || offset + size > this.bytes.length) {
			throw new UnreadableSourceError(
				`The file ends too early: ${what} at byte ${offset} is missing (the file has ${this.bytes.length} bytes).`,
			);
		}
	}

	u8(offset: number, what = 'a byte'): number {
		this.need(offset, 1, what);
		return this.bytes[offset];
	}

	u16le(offset: number, what = 'a 16-bit value'): number {
		this.need(offset, 2, what);
		return this.view.getUint16(offset, true);
	}

	i16le(offset: number, what = 'a 16-bit value'): number {
		this.need(offset, 2, what);
		return this.view.getInt16(offset, true);
	}

	u32le(offset: number, what = 'a 32-bit value'): number {
		this.need(offset, 4, what);
		return this.view.getUint32(offset, true);
	}

	i32le(offset: number, what = 'a 32-bit value'): number {
		this.need(offset, 4, what);
		return this.view.getInt32(offset, true);
	}

	u32be(offset: number, what = 'a 32-bit value'): number {
		this.need(offset, 4, what);
		return this.view.getUint32(offset, false);
	}

	/** Bytes as Latin-1 text (headers of old formats are plain 8-bit text). */
	latin1(offset: number, length: number, what = 'text'): string {
		this.need(offset, length, what);
		let text = '';
		for (let i = offset; i < offset + length; i++) text += String.fromCharCode(this.bytes[i]);
		return text;
	}
}

/** A growable byte buffer for writers; it doubles its capacity so a million records stay cheap. */
export class ByteWriter {
	private buffer: Uint8Array;
	private view: DataView;
	length = 0;

	constructor(capacity = 4096) {
		this.buffer = new Uint8Array(capacity);
		this.view = new DataView(this.buffer.buffer);
	}

	private ensure(extra: number): void {
		if (this.length + extra <= this.buffer.length) return;
		let capacity = this.buffer.length * 2;
		while (capacity < this.length + extra) capacity *= 2;
		const next = new Uint8Array(capacity);
		next.set(this.buffer.subarray(0, this.length));
		this.buffer = next;
		this.view = new DataView(next.buffer);
	}

	u8(value: number): void {
		this.ensure(1);
		this.buffer[this.length++] = value & 0xff;
	}

	bytes3(b0: number, b1: number, b2: number): void {
		this.ensure(3);
		this.buffer[this.length++] = b0 & 0xff;
		this.buffer[this.length++] = b1 & 0xff;
		this.buffer[this.length++] = b2 & 0xff;
	}

	u16le(value: number): void {
		this.ensure(2);
		this.view.setUint16(this.length, value & 0xffff, true);
		this.length += 2;
	}

	u32le(value: number): void {
		this.ensure(4);
		this.view.setUint32(this.length, value >>> 0, true);
		this.length += 4;
	}

	u32be(value: number): void {
		this.ensure(4);
		this.view.setUint32(this.length, value >>> 0, false);
		this.length += 4;
	}

	/** Latin-1 text; characters outside it become '?'. */
	latin1(text: string): void {
		this.ensure(text.length);
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			this.buffer[this.length++] = code < 256 ? code : 0x3f;
		}
	}

	fill(value: number, count: number): void {
		this.ensure(count);
		this.buffer.fill(value & 0xff, this.length, this.length + count);
		this.length += count;
	}

	/** Pads with `value` until the buffer is `size` bytes long. */
	padTo(size: number, value = 0): void {
		if (size > this.length) this.fill(value, size - this.length);
	}

	setU16le(offset: number, value: number): void {
		this.view.setUint16(offset, value & 0xffff, true);
	}

	setU32le(offset: number, value: number): void {
		this.view.setUint32(offset, value >>> 0, true);
	}

	toBytes(): Uint8Array {
		return this.buffer.slice(0, this.length);
	}
}
