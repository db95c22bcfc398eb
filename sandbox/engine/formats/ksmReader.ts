/**
 * Reads Pfaff KSM, strictly: it has no magic, so a file is KSM only where every record fits. A 512-byte
 * header (zeros in the samples) is followed by 3-byte records: the move's size on y, its size on x, and
 * a control byte. Of the control byte, 0x80 is always set, 0x40 makes x negative, 0x20 makes y positive
 * (y is down), and the low five bits are a code: 0 nothing; 0x07, 0x13 or 0x17 trim before the move, whose
 * moves are then jumps until 0x18 or 0x19 (sew again); 0x0b-0x12 and 0x1c-0x1e change the needle after
 * the move (moves are jumps until sewing resumes); 0x05 stop; 0x1b, which comes before a needle change or
 * the end; 0x08 end, the last record. What 0x17, 0x18 and 0x1c-0x1e do is read from real files whose DST
 * twins trim and change colour there (pyembroidery sews through 0x17 and stops reading at 0x1e).
 */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor } from './binaryIo';

const recordsOffset = 0x200;
const recordBytes = 3;
const alwaysSet = 0x80;
const xNegative = 0x40;
const yPositive = 0x20;
const codeMask = 0x1f;
const endCode = 0x08;
const stopCode = 0x05;
const beforeEndCode = 0x1b;
const trimCodes = new Set([0x07, 0x13, 0x17]);
const sewCodes = new Set([0x18, 0x19]);
const needleCodes = new Set([0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x1c, 0x1d, 0x1e]);
/** Records the cheap content check looks at before the whole file is read. */
const recordsChecked = 64;
/** Moves of at most this much per axis are the small back-and-forth steps writers put among jumps. */
const smallMove = 3;
/** Turns a run of jumps may take: real files' runs (Star.ksm, Embroidermodder's samples) take none. */
const mostJumpTurns = 4;

/**
 * How often a run of jumps turns, as stitches do and a move never does: a move is split into steps in one
 * direction, and the only other jumps real writers leave are small steps and pairs that cancel (-127 1,
 * then 127 -1, in the records before the end). A changed control byte that trims where the design sews
 * reads the stitches after it as such a run.
 */
function jumpTurns(moves: number[]): number {
	let turns = 0;
	let previousX = 0;
	let previousY = 0;
	for (let i = 0; i < moves.length; i += 2) {
		const dx = moves[i];
		const dy = moves[i + 1];
		if (dx === 0 && dy === 0) continue;
		const cancelled =
			(dx === -previousX && dy === -previousY) ||
			(i + 3 < moves.length && moves[i + 2] === -dx && moves[i + 3] === -dy);
		const small = Math.abs(dx) <= smallMove && Math.abs(dy) <= smallMove;
		const along = dx * previousX + dy * previousY;
		const sameWay =
			along > 0 && along * along >= 0.8 * (dx * dx + dy * dy) * (previousX ** 2 + previousY ** 2);
		const first = previousX === 0 && previousY === 0;
		if (!cancelled && !small && !sameWay && !first) turns++;
		previousX = dx;
		previousY = dy;
	}
	return turns;
}

function knownCode(code: number): boolean {
	return (
		code === 0 ||
		code === endCode ||
		code === stopCode ||
		code === beforeEndCode ||
		trimCodes.has(code) ||
		sewCodes.has(code) ||
		needleCodes.has(code)
	);
}

export function looksLikeKsm(bytes: Uint8Array): boolean {
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0) return false;
	const checked = Math.min(bytes.length, recordsOffset + recordsChecked * recordBytes);
	for (let at = recordsOffset + 2; at < checked; at += recordBytes) {
		const control = bytes[at];
		if ((control & alwaysSet) === 0 || !knownCode(control & codeMask)) return false;
	}
	return (bytes[bytes.length - 1] & codeMask) === endCode;
}

export function readKsm(bytes: Uint8Array): Pattern {
	const cursor = new ByteCursor(bytes, 'KSM');
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0)
		cursor.fail(`its ${bytes.length} bytes are not a 512-byte header and whole 3-byte records`);
	const builder = new RelativePatternBuilder(Math.max(1024, length / recordBytes + 2));
	const last = bytes.length - recordBytes;
	let trimmed = false;
	let sewn = false;
	/** The moves of the jumps since the last trim or needle change, as dx, dy pairs. */
	let jumps: number[] = [];
	let jumpsFrom = 0;
	const endJumps = () => {
		if (jumpTurns(jumps) > mostJumpTurns)
			cursor.fail(
				`the ${jumps.length / 2} jumps from byte ${jumpsFrom} turn back and forth as stitches do, ` +
					'which a move between two places never does',
			);
		jumps = [];
	};
	for (let at = recordsOffset; at <= last; at += recordBytes) {
		const control = bytes[at + 2];
		const code = control & codeMask;
		if ((control & alwaysSet) === 0 || !knownCode(code))
			cursor.fail(`the record at byte ${at} has the control byte 0x${control.toString(16)}`);
		const dy = control & yPositive ? bytes[at] : -bytes[at];
		const dx = control & xNegative ? -bytes[at + 1] : bytes[at + 1];
		if (trimCodes.has(code)) {
			builder.trim();
			if (!trimmed) jumpsFrom = at;
			trimmed = true;
		}
		if (trimmed) {
			builder.jump(dx, dy);
			jumps.push(dx, dy);
		} else if (dx !== 0 || dy !== 0) {
			builder.stitch(dx, dy);
			sewn = true;
		}
		if (code === endCode) {
			if (at !== last) cursor.fail(`the end record at byte ${at} is not the last`);
			endJumps();
			break;
		}
		if (at === last) cursor.fail('the last record is not the end record');
		if (sewCodes.has(code)) {
			endJumps();
			trimmed = false;
		} else if (needleCodes.has(code)) {
			// The first needle chosen before any sewing is the first colour, not a change.
			if (sewn) builder.colourChange();
			if (!trimmed) jumpsFrom = at + recordBytes;
			trimmed = true;
		} else if (code === stopCode) {
			builder.stop();
		}
	}
	return builder.finish();
}
