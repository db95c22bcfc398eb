/**
 * Reads Husqvarna Viking VIP: HUS's header and compressed stitch streams, with the colours held as
 * RGB instead of chart places. After the header's 2 unknown bytes come a 32-bit length and 4 bytes
 * per colour (red, green, blue, one more), each byte XORed with a fixed key byte and with the byte
 * before it in the file (the first with 0).
 */
import { UnreadableSourceError } from '../errors';
import { threadOf, type Pattern, type Thread } from '../pattern';
import {
	husColourListOffset,
	parseHusqvarnaHeader,
	readHusqvarnaStitches,
	type HusqvarnaLayout,
} from './husReader';

export const vipMagic = 0x0190fc5d;
const colourOffset = husColourListOffset + 4;
const bytesPerColour = 4;

/** The format's colour key, one byte per colour byte: it covers 100 colours. */
const colourKey = Buffer.from(
	'2e82e46f38a9dcc67bb628acfdaa8a4e762ef0e4251b8a684e92b9b495f03eeff74024183931bbe153a81fb13a07fbcb' +
		'e60081500e40e12c73500d91d60a5dd68bb862ae4700535ab780aa28f75d705e2c0b98e3a0986047899b82fb40c9b400' +
		'0e686a1e0985c05381d19889afe8854fe3698903a12e8fcfed919f581ed6843c0927bdf4c390c0511b2b63bcb93d404d' +
		'626fe08cf55d08fd3d5036d7c9c943e42dcb95b6f40deac2fd663f5ebd69062a0319472bdf38ea4f804995b2d6f99a75' +
		'f4d89b1db0a469dba921796fd8de33fe9f04e59a6b9b7383627cb96676f25bc95efc74aa6cf1cd93cee98053033b974b' +
		'3976c2c156cb70fd3b3e5257815d568d5190d476d7d516026df24de10e964fa13aa0605964041ae467b6ed3f7420551f' +
		'fb23929153c865ab9d51d673de01b180b7c0d6801c2e3c8363eebc3325e20e7a67de3f7114499c92930d269a0edaed6f' +
		'a4890c1bf0a1dfe19e3c0478e4ab6dff9cafcac788179ce5b7336ddced8f6c181d7106b1c5e2cf137781c5b70a140a6b' +
		'4026a088d1626ab35012b99bb5839b37',
	'hex',
);

export const vipLayout: HusqvarnaLayout = {
	magics: [vipMagic],
	label: 'VIP',
	colourListEnd: (colourCount) => colourOffset + bytesPerColour * colourCount,
	maxColours: colourKey.length / bytesPerColour,
};

export function looksLikeVip(bytes: Uint8Array): boolean {
	return typeof parseHusqvarnaHeader(bytes, vipLayout) !== 'string';
}

function vipThreads(bytes: Uint8Array, colourCount: number): Thread[] {
	const threads: Thread[] = [];
	let previous = 0;
	const decoded = new Uint8Array(bytesPerColour);
	for (let colour = 0; colour < colourCount; colour++) {
		for (let i = 0; i < bytesPerColour; i++) {
			const index = colour * bytesPerColour + i;
			const byte = bytes[colourOffset + index];
			decoded[i] = byte ^ colourKey[index] ^ previous;
			previous = byte;
		}
		threads.push(threadOf({ color: (decoded[0] << 16) | (decoded[1] << 8) | decoded[2] }));
	}
	return threads;
}

export function readVip(bytes: Uint8Array): Pattern {
	const header = parseHusqvarnaHeader(bytes, vipLayout);
	if (typeof header === 'string')
		throw new UnreadableSourceError(`The VIP file is damaged: ${header}.`);
	const pattern = readHusqvarnaStitches(bytes, header, 'VIP');
	pattern.threads = vipThreads(bytes, header.colourCount);
	return pattern;
}
