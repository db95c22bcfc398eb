/**
 * ZSK DSZ: a Tajima-style 512-byte text header (as DST's), then ZSK's 3-byte records
 * [|dy|, |dx|, control]: the control's 0x20 points dy down and 0x40 dx left; its low five bits say
 * stitch (0) or jump (1), and the codes 0x82 stop, 0x83-0x9A needle change, 0x9B trim, 0x90 or
 * 0x91 end (the end code sets 0x10; DSZ samples end with 0x90, FXY's description names 0x91, and the
 * Rust catalogue's Cake 3.dsz ends with 0x91 after changing needles with 0x83 to 0x93, as pyembroidery
 * reads them).
 */
import { UnreadableSourceError } from '../errors';
import { recordsBuilder, type RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import {
	checkTajimaEnd,
	expectTajimaHeader,
	hasTajimaHeader,
	hasTextHeaderTail,
	headerSize,
	headerThreads,
} from './dstReader';
import type { FormatModule } from './format';

const recordFlag = 0x80;
const downFlag = 0x20;
const leftFlag = 0x40;
const stopCode = 0x82;
const firstNeedleCode = 0x83;
const lastNeedleCode = 0x9a;
const trimCode = 0x9b;
const endCodes = [0x90, 0x91];

/** What one control byte asks for, or null when ZSK's records have no such control. */
function zskCommand(
	control: number,
): 'stitch' | 'jump' | 'stop' | 'needle' | 'trim' | 'end' | null {
	if ((control & recordFlag) === 0) return null;
	const low = control & 0x1f;
	if (low === 0) return 'stitch';
	if (low === 1) return 'jump';
	if (control === stopCode) return 'stop';
	if (control === trimCode) return 'trim';
	if (endCodes.includes(control)) return 'end';
	if (control >= firstNeedleCode && control <= lastNeedleCode) return 'needle';
	return null;
}

/** Each control byte's command, looked up once per record. */
const commands = Array.from({ length: 256 }, (_, control) => zskCommand(control));

/**
 * Decodes ZSK's records from `start` into `builder`, as DSZ (after its Tajima header) and FXY (after
 * 256 bytes) hold them. Returns the offset of the end record, or of the first byte no whole record covers
 * when the records stop without one. A control ZSK does not define is refused as damage.
 */
export function decodeZskRecords(
	bytes: Uint8Array,
	start: number,
	builder: RelativePatternBuilder,
	label: string,
): number {
	let sewn = false;
	let needleChosen = false;
	let offset = start;
	for (; offset + 3 <= bytes.length; offset += 3) {
		const control = bytes[offset + 2];
		const dy = control & downFlag ? bytes[offset] : -bytes[offset];
		const dx = control & leftFlag ? -bytes[offset + 1] : bytes[offset + 1];
		switch (commands[control]) {
			case 'stitch':
				builder.stitch(dx, dy);
				sewn = true;
				break;
			case 'jump':
				builder.jump(dx, dy);
				break;
			case 'stop':
				builder.jump(dx, dy);
				builder.stop();
				break;
			case 'trim':
				builder.trim();
				builder.jump(dx, dy);
				break;
			case 'needle':
				builder.jump(dx, dy);
				// As on Barudan machines, the needle chosen before anything is sewn sets the machine up.
				if (sewn || needleChosen) builder.colourChange();
				needleChosen = true;
				break;
			case 'end':
				return offset;
			default:
				throw new UnreadableSourceError(
					`The ${label} file is damaged: record ${(offset - start) / 3 + 1} has the control ` +
						`byte 0x${control.toString(16)}, which ZSK's records do not use.`,
				);
		}
	}
	return offset;
}

/** True when every record from `start` up to an end record (within the first 4,096) has a known control. */
export function zskRecordsFit(bytes: Uint8Array, start: number): boolean {
	if (bytes.length < start + 3) return false;
	const last = Math.min(bytes.length, start + 3 * 4096);
	for (let offset = start; offset + 3 <= last; offset += 3) {
		const command = commands[bytes[offset + 2]];
		if (command === null) return false;
		if (command === 'end') return true;
	}
	return true;
}

function readDsz(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'DSZ');
	expectTajimaHeader(bytes, 'ZSK DSZ');
	const endAt = decodeZskRecords(bytes, headerSize, builder, 'DSZ');
	const pattern = builder.finish();
	checkTajimaEnd(bytes, pattern, endAt, 'DSZ', 'end record');
	pattern.threads = headerThreads(bytes);
	return pattern;
}

export const dszFormat: FormatModule = {
	info: {
		format: 'dsz',
		label: 'ZSK DSZ',
		extension: 'dsz',
		mimeType: 'application/x-dsz',
		readable: true,
		writable: false,
		warning:
			'DSZ carries no thread colours (unless its header lists some, as extended DST headers ' +
			'do): each colour block is a needle change to be threaded at the machine. Read only.',
	},
	detect: (bytes) =>
		hasTajimaHeader(bytes) && hasTextHeaderTail(bytes) && zskRecordsFit(bytes, headerSize),
	// The labelled Tajima header, and records that DST's and DSB's checks refuse (flags in the last byte).
	detectionStrength: 3,
	read: readDsz,
	// DSZ names no hoop, and ZSK's machines take frames of many sizes.
	largestHoop: null,
};
