/** Reads Janome JEF: header, chart colours and stitch records (the layout is described below). */
import { ceilings } from '../ceilings';
import { boundsOf, Command, Pattern, type Thread } from '../pattern';
import { repeatedThreadsAsStops } from '../threads/colourBlocks';
import { jefThreadChart } from '../threads/jefThreads';
import { ByteCursor, signed8, u32leAt } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

/**
 * Janome JEF: a little-endian header (stitch offset, date, colour and record counts, hoop code,
 * extents, per-hoop edge distances, 78-colour chart codes) and 2-byte relative stitches with y up;
 * 0x80 escapes a command: 0x01 colour change, 0x02 jump, 0x10 end.
 */
export const colourListOffset = 116;
export const escape = 0x80;
export const colourChangeCode = 0x01;
export const jumpCode = 0x02;
export const endCode = 0x10;
/** One signed byte per axis, and -128 would read as the escape byte. */
export const maxJefMove = 127;
/**
 * JEF has no trim code. A trim is written as three zero-length jumps (the convention DST machines and
 * pyembroidery's trim option share); on reading, a run of that many jumps, or a jump run longer than
 * 3 mm, after sewing counts as trimmed.
 */
export const trimJumpCount = 3;
const trimmedJumpLength = 30;

export function looksLikeJef(bytes: Uint8Array): boolean {
	if (bytes.length < colourListOffset + 4) return false;
	const stitchOffset = u32leAt(bytes, 0);
	const colourCount = u32leAt(bytes, 24);
	if (stitchOffset === null || colourCount === null) return false;
	if (colourCount > 1000 || stitchOffset !== colourListOffset + 8 * colourCount) return false;
	if (stitchOffset + 2 > bytes.length) return false;
	// The 14-character date sits at bytes 8-21: digits, or spaces and zeros in some writers' files.
	for (let i = 8; i < 22; i++) {
		const byte = bytes[i];
		if (!(byte >= 0x30 && byte <= 0x39) && byte !== 0x20 && byte !== 0) return false;
	}
	return true;
}

export function readJef(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'JEF');
	const stitchOffset = cursor.u32le();
	cursor.seek(24);
	const colourCount = cursor.u32le();
	if (colourCount * 4 > cursor.length - colourListOffset)
		cursor.fail(`its header claims ${colourCount} colours`);
	if (!looksLikeJef(bytes))
		cursor.fail('its header does not hold a JEF stitch offset, colour count and date');
	cursor.seek(colourListOffset);
	const codes: number[] = [];
	for (let i = 0; i < colourCount; i++) codes.push(Math.abs(cursor.i32le()));
	cursor.seek(stitchOffset);

	const end = bytes.length;
	const pattern = new Pattern(Math.max(16, (end - stitchOffset) >> 1));
	const threads: Thread[] = [];
	if (codes.length) threads.push(jefThreadChart.threadForCode(codes[0]));
	let codeIndex = 0;
	let x = 0;
	let y = 0;
	let sewnSinceCut = false;
	let at = cursor.position;
	const jumps: number[] = [];
	// Only records declared to reach past the file's end may be a file cut short; others must end in the end code.
	const declaredUnits = u32leAt(bytes, recordUnitsOffset)!;
	const mayBeCut = declaredUnits !== 0 && stitchOffset + 2 * declaredUnits > end;
	let cut = false;
	const endsHere = (why: string): boolean => {
		if (!mayBeCut) cursor.fail(why);
		cut = true;
		return true;
	};

	/** A run of jump records: zero-length ones go, and a trimming run after sewing starts with a trim. */
	const flushJumps = (): void => {
		if (jumps.length === 0) return;
		let runX = 0;
		let runY = 0;
		let longest = 0;
		for (let j = 0; j < jumps.length; j += 2) {
			runX += jumps[j];
			runY += jumps[j + 1];
			longest = Math.max(longest, Math.abs(runX), Math.abs(runY));
		}
		if (sewnSinceCut && (jumps.length / 2 >= trimJumpCount || longest > trimmedJumpLength)) {
			pattern.add(x, y, Trim);
			sewnSinceCut = false;
		}
		for (let j = 0; j < jumps.length; j += 2) {
			if (jumps[j] === 0 && jumps[j + 1] === 0) continue;
			x += jumps[j];
			y += jumps[j + 1];
			pattern.add(x, y, Jump);
		}
		jumps.length = 0;
	};

	for (;;) {
		if (at + 2 > end && endsHere('the stitches end without the end-of-design code')) break;
		const first = bytes[at];
		const second = bytes[at + 1];
		if (first !== escape) {
			flushJumps();
			x += signed8(first);
			y -= signed8(second);
			pattern.add(x, y, Stitch);
			sewnSinceCut = true;
			at += 2;
			continue;
		}
		if (second === endCode) break;
		if (at + 4 > end && endsHere('a command is cut off at the end of the file')) break;
		const dx = signed8(bytes[at + 2]);
		const dy = -signed8(bytes[at + 3]);
		at += 4;
		if (second === jumpCode) {
			jumps.push(dx, dy);
			continue;
		}
		flushJumps();
		if (second !== colourChangeCode)
			cursor.fail(`control code 0x${second.toString(16)} at byte ${at - 4} is not JEF's`);
		codeIndex++;
		const code = codes[codeIndex];
		// Colour 0 is no thread: the machine only stops (how some writers mark a stop).
		const isStop = code === 0;
		pattern.add(x, y, isStop ? Stop : ColorChange);
		if (!isStop) threads.push(jefThreadChart.threadForCode(code));
		sewnSinceCut = false;
		if (dx !== 0 || dy !== 0) {
			jumps.push(dx, dy);
			flushJumps();
		}
	}
	flushJumps();
	pattern.add(x, y, End);
	if (!cut) expectDeclaredLength(bytes, stitchOffset, at, cursor);
	expectWithinDeclaredExtents(bytes, pattern, cursor);
	pattern.threads = threads;
	repeatedThreadsAsStops(pattern);
	if (cut)
		warnEndsEarly(pattern, 'without its end-of-design code', {
			count: declaredUnits,
			what: 'record units (2 bytes each)',
			read: (at - stitchOffset) / 2,
		});
	return pattern;
}

/** Where the header gives the length of the stitch records, in 2-byte units, the end code included. */
const recordUnitsOffset = 28;
/** How far the declared length may be off: real files (Star.JEF, Embroidermodder's samples) are exact. */
const recordUnitsSlack = 2;

/**
 * Throws unless the header's record length (a stitch 1, a command 2, the end code 1: pyembroidery writes it
 * so, and every real JEF seen is exact) reaches the end code at `endAt`: another format's bytes behind a
 * JEF header end somewhere else, if at all. A header that leaves it 0 is not checked.
 */
function expectDeclaredLength(
	bytes: Uint8Array,
	stitchOffset: number,
	endAt: number,
	cursor: ByteCursor,
): void {
	const declared = u32leAt(bytes, recordUnitsOffset)!;
	const read = (endAt + 2 - stitchOffset) / 2;
	if (declared !== 0 && Math.abs(declared - read) > recordUnitsSlack)
		cursor.fail(
			`its header declares ${declared} record units (2 bytes each), but its end-of-design code comes ` +
				`after ${read}`,
		);
}

/** Where the header gives the design's reach from its start: left, top, right, bottom (0.1 mm). */
const extentsOffset = 36;

/**
 * Throws when the stitches reach well past the extents the header declares (more than 2 mm or 5%):
 * another format's bytes behind a JEF header wander off. Headers without extents (negative, or all zero)
 * are not checked.
 */
function expectWithinDeclaredExtents(
	bytes: Uint8Array,
	pattern: Pattern,
	cursor: ByteCursor,
): void {
	const [left, top, right, bottom] = [0, 4, 8, 12].map(
		(at) => u32leAt(bytes, extentsOffset + at)! | 0,
	);
	if (left < 0 || top < 0 || right < 0 || bottom < 0) return;
	if (left === 0 && top === 0 && right === 0 && bottom === 0) return;
	// Extents past what the engine takes (10 m from the start) are other bytes in their place: Star.EXP's
	// records under Star.JEF's first 32 bytes declare 217 million (0.1 mm), which any stitches fit.
	if (Math.max(left, top, right, bottom) > ceilings.coordinate)
		cursor.fail(
			`its header declares extents of ${left} left, ${top} up, ${right} right and ${bottom} down ` +
				`(0.1 mm), beyond the ${ceilings.coordinate / 10_000} m any design can reach`,
		);
	const bounds = boundsOf(pattern, [Stitch, Jump]);
	if (!bounds) return;
	const slack = (extent: number) => Math.max(20, Math.ceil(extent * 0.05));
	const pastFromStart =
		-bounds.minX > left + slack(left) ||
		-bounds.minY > top + slack(top) ||
		bounds.maxX > right + slack(right) ||
		bounds.maxY > bottom + slack(bottom);
	// Some writers give half the design's width and height on each side, its stitches starting in a corner
	// (the golden JEFs of embroidery-converter-kit: 450 each side of a design sewn from (0, 0) to (900,
	// 650)). Extents that equal each other so are then the design's size, within 0.2 mm: a changed byte that
	// moves the rest of Star.JEF (295 left, 296 right) still leaves its extents.
	const centred = left === right && top === bottom;
	const sizeTolerance = 2;
	const pastInSize =
		!centred ||
		Math.abs(bounds.maxX - bounds.minX - (left + right)) > sizeTolerance ||
		Math.abs(bounds.maxY - bounds.minY - (top + bottom)) > sizeTolerance;
	if (pastFromStart && pastInSize)
		cursor.fail(
			`its header declares extents of ${left} left, ${top} up, ${right} right and ${bottom} down ` +
				`(0.1 mm), but its stitches reach from (${bounds.minX}, ${bounds.minY}) to (${bounds.maxX}, ${bounds.maxY})`,
		);
}
