import type { Pattern } from '../pattern';
import { ByteBuilder, hasSignature } from './binary-io';
import { UnreadableSourceError } from '../errors';
import type { FormatModule, WriteResult } from './format';
import {
	defaultPecLabel,
	looksLikePecBlock,
	pesV1LargestHoop,
	prepareForPec,
	readPecBlock,
	writePecBlock,
} from './pec-block';

/** Brother PEC: the "#PEC0001" signature followed directly by a PEC block, as card readers and older machines take it. */

const signature = '#PEC0001';
const pecStart = signature.length;

function detect(bytes: Uint8Array): boolean {
	return hasSignature(bytes, signature) && looksLikePecBlock(bytes, pecStart);
}

function read(bytes: Uint8Array): Pattern {
	if (!detect(bytes)) {
		throw new UnreadableSourceError(
			'The PEC file is damaged: it does not start with "#PEC0001" and a PEC label.',
		);
	}
	return readPecBlock(bytes, pecStart, 'PEC');
}

function write(source: Pattern): WriteResult {
	const { pattern, codes, warnings } = prepareForPec(source, 'PEC');
	const out = new ByteBuilder(1024 + pattern.length * 3);
	out.ascii(signature);
	writePecBlock(out, pattern, codes, defaultPecLabel);
	return { bytes: out.toBytes(), warnings };
}

export const pecFormat: FormatModule = {
	info: {
		format: 'pec',
		label: 'Brother PEC',
		extension: 'pec',
		mimeType: 'application/x-pec',
		readable: true,
		writable: true,
		warning:
			"Thread colours are snapped to Brother's 64-colour PEC chart (names and exact shades are lost); " +
			'stops are stored as a repeated colour.',
	},
	detect,
	detectionStrength: 3,
	read,
	write,
	largestHoop: pesV1LargestHoop,
};
