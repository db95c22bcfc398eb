/**
 * Husqvarna Viking's compression, which HUS and VIP apply to each of their three byte streams
 * (commands, x moves, y moves). It is LHA's "-lh5-" family: LZ77 copies and literals, Huffman-coded
 * in blocks, bits read most significant first. Each block opens with its token count (16 bits) and
 * three canonical code tables described by their code lengths: the code-length code (5-bit count, 3-bit
 * lengths extended by a run of 1 bits, up to 3 entries skipped after the third), the token code (9-bit
 * count, lengths as code-length symbols where 0-2 are runs of zero lengths) and the distance code
 * (5-bit count, lengths as the first table's); a count of 0 names a single symbol that costs no bits.
 * A token below 256 is a literal byte, 510 ends the stream, any other copies (token - 253) bytes from
 * a distance coded as its bit length and that many following bits.
 *
 * Expansion is bounded: the output never grows past the size the file declares, every table and copy
 * is checked before use, and a block costs at most a fixed amount of work.
 */
import { UnreadableSourceError } from '../errors';

const endToken = 510;
const firstCopyToken = 256;
/** A copy token's length is the token minus this, so token 256 copies 3 bytes. */
const copyLengthBias = 253;
const longestCode = 16;
/** Codes up to this length decode with one table lookup; longer ones by a short search. */
const fastBits = 10;
const slowEntry = -1;
const noEntry = -2;

/** Reads bits most significant first; bits past the end read as zeros until the stream is found short. */
class BitReader {
	position = 0;
	readonly totalBits: number;
	readonly data: Uint8Array;

	constructor(source: Uint8Array) {
		// Zero bytes of padding let a peek of up to 32 bits near the end go without bounds checks.
		this.data = new Uint8Array(source.length + 4);
		this.data.set(source);
		this.totalBits = source.length * 8;
	}

	peek16(): number {
		const at = this.position >>> 3;
		const data = this.data;
		const window = (data[at] << 16) | (data[at + 1] << 8) | data[at + 2];
		return (window >>> (8 - (this.position & 7))) & 0xffff;
	}

	/** Consumes `count` bits; reading past the stream's last bit means the stream is cut short. */
	skip(count: number): void {
		if (this.position + count > this.totalBits) throw new StreamCutError();
		this.position += count;
	}

	/** The next `count` bits (up to 30) as a number. */
	read(count: number): number {
		let value = 0;
		while (count > 0) {
			const take = count > 16 ? 16 : count;
			value = value * (1 << take) + (this.peek16() >>> (16 - take));
			this.skip(take);
			count -= take;
		}
		return value;
	}
}

/** A fault inside a compressed stream; the reader turns it into a refusal naming the format and stream. */
class CompressedStreamError extends Error {}

/** The stream's bits run out before its bytes do: the file is cut short there (or the stream damaged). */
class StreamCutError extends CompressedStreamError {
	constructor() {
		super('it ends early');
	}
}

/** A canonical prefix code: codes assigned in order of length, then symbol, as the format defines. */
class PrefixCode {
	/** For a code of up to `fastBits` bits: (symbol << 5) | length; else `slowEntry` or `noEntry`. */
	readonly fast = new Int32Array(1 << fastBits);
	/** The codes in canonical order, left-aligned in 16 bits, with their symbols and lengths. */
	private readonly starts = new Int32Array(512);
	private readonly symbols = new Uint16Array(512);
	private readonly lengths = new Uint8Array(512);
	private readonly perLength = new Int32Array(longestCode + 1);
	private readonly firstOfLength = new Int32Array(longestCode + 2);
	private codes = 0;
	/** How far a 16-bit peek shifts to index the fast table (16 less the longest code, up to `fastBits`). */
	shift = longestCode - fastBits;
	/** Index of the first code longer than `width`. */
	private firstLong = 0;
	/** Left-aligned end of the last code: below 65536 when the code leaves some bit patterns unused. */
	private end = 0;
	/** The one symbol of a table that names only one, which costs no bits; -1 otherwise. */
	single = -1;

	useSingle(symbol: number): void {
		this.single = symbol;
	}

	/** Builds the code from the lengths of symbols 0..count-1 (0 = symbol unused). */
	build(codeLengths: Uint8Array, count: number): void {
		this.single = -1;
		const { perLength, firstOfLength, starts, symbols, lengths, fast } = this;
		perLength.fill(0);
		let longest = 0;
		for (let symbol = 0; symbol < count; symbol++) {
			const length = codeLengths[symbol];
			if (length > longestCode) throw new CompressedStreamError(`a code is ${length} bits long`);
			if (length > longest) longest = length;
			perLength[length]++;
		}
		perLength[0] = 0;
		let next = 0;
		for (let length = 1; length <= longestCode; length++) {
			firstOfLength[length] = next;
			next += perLength[length];
		}
		this.codes = next;
		if (next === 0) throw new CompressedStreamError('a code table names no symbol');
		for (let symbol = 0; symbol < count; symbol++) {
			const length = codeLengths[symbol];
			if (length === 0) continue;
			const index = firstOfLength[length]++;
			symbols[index] = symbol;
			lengths[index] = length;
		}
		// Filling only as much of the fast table as the longest code needs keeps small tables cheap.
		const width = Math.min(longest, fastBits);
		const shift = longestCode - width;
		this.shift = shift;
		fast.fill(noEntry, 0, 1 << width);
		this.firstLong = next;
		let code = 0;
		for (let index = 0; index < next; index++) {
			const length = lengths[index];
			starts[index] = code;
			const first = code >>> shift;
			code += 1 << (longestCode - length);
			if (code > 1 << longestCode)
				throw new CompressedStreamError('a code table has more codes than bit patterns');
			if (length <= width) {
				const entry = (symbols[index] << 5) | length;
				// A plain loop: most codes fill one or two slots, where a fill() call costs more.
				for (let slot = first, last = code >>> shift; slot < last; slot++) fast[slot] = entry;
			} else {
				fast[first] = slowEntry;
				if (index < this.firstLong) this.firstLong = index;
			}
		}
		this.end = code;
	}

	/** Decodes one symbol at the reader's position. */
	decode(reader: BitReader): number {
		if (this.single >= 0) return this.single;
		// The reader's peek and skip, written out: this runs once per byte of every stream.
		const position = reader.position;
		const data = reader.data;
		const at = position >>> 3;
		const bits =
			(((data[at] << 16) | (data[at + 1] << 8) | data[at + 2]) >>> (8 - (position & 7))) & 0xffff;
		const entry = this.fast[bits >>> this.shift];
		if (entry >= 0) {
			const next = position + (entry & 31);
			if (next > reader.totalBits) throw new StreamCutError();
			reader.position = next;
			return entry >>> 5;
		}
		if (entry === noEntry || bits >= this.end)
			throw new CompressedStreamError('it holds a code that its table does not define');
		// The long codes are sorted: the last one starting at or before the bits is the one.
		let low = this.firstLong;
		let high = this.codes - 1;
		while (low < high) {
			const middle = (low + high + 1) >>> 1;
			if (this.starts[middle] <= bits) low = middle;
			else high = middle - 1;
		}
		reader.skip(this.lengths[low]);
		return this.symbols[low];
	}
}

/**
 * A stream's decoder state: the current block's tables and how many tokens it still holds. One is
 * kept and reset for every stream, since expanding is synchronous and its tables cost a few KB.
 */
class StreamExpander {
	private readonly lengthCode = new PrefixCode();
	private readonly tokenCode = new PrefixCode();
	private readonly distanceCode = new PrefixCode();
	private readonly scratch = new Uint8Array(512);
	private tokensLeft = 0;
	private reader = new BitReader(new Uint8Array(0));

	reset(reader: BitReader): void {
		this.reader = reader;
		this.tokensLeft = 0;
	}

	/** A code length: 3 bits, and when all are set, one more for each following 1 bit (up to 13). */
	private codeLength(): number {
		const reader = this.reader;
		let length = reader.read(3);
		if (length !== 7) return length;
		for (let extra = 0; extra < 13; extra++) {
			if (reader.read(1) === 0) break;
			length++;
		}
		return length;
	}

	/** A table's symbol count, its lengths cleared; a count of 0 is a one-symbol table, read here. */
	private tableSize(code: PrefixCode, countBits: number): number {
		const count = this.reader.read(countBits);
		if (count === 0) code.useSingle(this.reader.read(countBits));
		else this.scratch.fill(0, 0, count);
		return count;
	}

	private loadLengthCode(): void {
		const count = this.tableSize(this.lengthCode, 5);
		if (count === 0) return;
		for (let index = 0; index < count; index++) {
			if (index === 3) {
				index += this.reader.read(2);
				if (index >= count) throw new CompressedStreamError('its code-length table overruns');
			}
			this.scratch[index] = this.codeLength();
		}
		this.lengthCode.build(this.scratch, count);
	}

	private loadTokenCode(): void {
		const count = this.tableSize(this.tokenCode, 9);
		if (count === 0) return;
		let index = 0;
		while (index < count) {
			const symbol = this.lengthCode.decode(this.reader);
			if (symbol === 0) index += 1;
			else if (symbol === 1) index += 3 + this.reader.read(4);
			else if (symbol === 2) index += 20 + this.reader.read(9);
			else this.scratch[index++] = symbol - 2;
		}
		this.tokenCode.build(this.scratch, count);
	}

	private loadDistanceCode(): void {
		const count = this.tableSize(this.distanceCode, 5);
		if (count === 0) return;
		for (let index = 0; index < count; index++) this.scratch[index] = this.codeLength();
		this.distanceCode.build(this.scratch, count);
	}

	/**
	 * Decodes literal tokens straight into `output` until a copy or an end token, the block's end or
	 * `size` bytes: the common case, kept in local variables. Returns how many bytes `output` now holds.
	 */
	literals(output: Uint8Array, written: number, size: number): number {
		const code = this.tokenCode;
		if (code.single >= 0) return written;
		const reader = this.reader;
		const { data, totalBits } = reader;
		const { fast, shift } = code;
		const literalEntries = firstCopyToken << 5;
		let position = reader.position;
		let left = this.tokensLeft;
		// A 32-bit window of the bits from `position` on, topped up a byte at a time.
		let next = (position >>> 3) + 4;
		let window =
			((data[next - 4] << 24) | (data[next - 3] << 16) | (data[next - 2] << 8) | data[next - 1]) <<
			(position & 7);
		let available = 32 - (position & 7);
		const last = written + Math.min(left, size - written);
		const first = written;
		while (written < last) {
			while (available <= 24) {
				window |= data[next++] << (24 - available);
				available += 8;
			}
			const entry = fast[(window >>> 16) >>> shift];
			if (entry < 0 || entry >= literalEntries) break;
			const length = entry & 31;
			// A code that runs past the stream's last bit is where a cut file stops: nothing of it is taken.
			if (position + length > totalBits) break;
			position += length;
			window <<= length;
			available -= length;
			output[written++] = entry >>> 5;
		}
		left -= written - first;
		reader.position = position;
		this.tokensLeft = left;
		return written;
	}

	/** Tokens the current block still declares. */
	get blockTokensLeft(): number {
		return this.tokensLeft;
	}

	token(): number {
		if (this.tokensLeft <= 0) {
			this.tokensLeft = this.reader.read(16);
			this.loadLengthCode();
			this.loadTokenCode();
			this.loadDistanceCode();
		}
		this.tokensLeft--;
		return this.tokenCode.decode(this.reader);
	}

	distance(): number {
		const bitLength = this.distanceCode.decode(this.reader);
		if (bitLength === 0) return 0;
		return (1 << (bitLength - 1)) + this.reader.read(bitLength - 1);
	}
}

const expander = new StreamExpander();

/**
 * Expands one compressed stream of a HUS or VIP file to fill `output` exactly, and returns how many bytes
 * it gave. A stream that holds anything undefined, or closes, before giving that many bytes is refused as
 * damaged; so is one whose bits run out, unless `mayBeCut` (the stream runs to the end of a file that may
 * be cut short): then the bytes decoded before the cut are returned. The caller sizes `output` from the
 * file's stitch count, checked against the engine's ceilings.
 */
export function expandHusqvarnaStream(
	compressed: Uint8Array,
	output: Uint8Array,
	what: string,
	mayBeCut = false,
): number {
	const size = output.length;
	const reader = new BitReader(compressed);
	expander.reset(reader);
	let written = 0;
	try {
		while (written < size) {
			written = expander.literals(output, written, size);
			if (written === size) break;
			if (reader.position >= reader.totalBits) throw new StreamCutError();
			const token = expander.token();
			if (token < firstCopyToken) {
				output[written++] = token;
				continue;
			}
			if (token === endToken) throw new CompressedStreamError('it ends early');
			const length = Math.min(token - copyLengthBias, size - written);
			const from = written - expander.distance() - 1;
			if (from < 0) throw new CompressedStreamError('a copy reaches back before its start');
			if (from === written - 1) {
				// A run of one repeated byte, as long runs of plain stitches compress.
				output.fill(output[from], written, written + length);
				written += length;
			} else {
				// Byte by byte: a copy may overlap the bytes it is writing.
				for (let i = 0; i < length; i++) output[written++] = output[from + i];
			}
		}
	} catch (error) {
		if (!(error instanceof CompressedStreamError)) throw error;
		// Every token left gives at least one byte, but the end token: a block declaring more than are left
		// was read from garbled bits (a changed byte, not a cut), as real streams cut short never do.
		if (
			mayBeCut &&
			error instanceof StreamCutError &&
			expander.blockTokensLeft <= size - written + 1
		)
			return written;
		throw new UnreadableSourceError(
			`The ${what} is damaged: ${error.message} after ${written} of its ${size} bytes.`,
		);
	}
	// Writers close a stream with the end token right after its last byte: more bits that are not the end
	// token mean the declared stitch count and the stream disagree (a changed byte garbles every code after it).
	let closed = false;
	try {
		closed = expander.token() === endToken;
	} catch (error) {
		if (!(error instanceof CompressedStreamError)) throw error;
	}
	// Streams built without the end token (a few bits of padding at most) are taken as they are.
	if (!closed && reader.totalBits - reader.position > 16)
		throw new UnreadableSourceError(
			`The ${what} is damaged: it does not end after the ${size} bytes its header declares.`,
		);
	return size;
}
