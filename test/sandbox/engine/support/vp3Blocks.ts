/** VP3's nested blocks, for tests that remove bytes from a written file as another writer would leave them. */

/**
 * `shorter`, which is `original` with two stitch bytes removed, with every enclosing block's 32-bit length
 * (the file, design, colour and stitch blocks, each after its 3-byte tag) two bytes shorter.
 */
export function fixBlockLengths(shorter: Uint8Array, original: Uint8Array): Uint8Array {
	const out = shorter.slice();
	const view = new DataView(out.buffer);
	const tags = [
		[0x00, 0x02, 0x00],
		[0x00, 0x03, 0x00],
		[0x00, 0x05, 0x00],
		[0x00, 0x01, 0x00],
	];
	for (const tag of tags) {
		for (let at = 0; at + 7 <= out.length; at++) {
			if (out[at] !== tag[0] || out[at + 1] !== tag[1] || out[at + 2] !== tag[2]) continue;
			const length = view.getUint32(at + 3, false);
			// A block whose declared length reached the end of the original file encloses the removed bytes.
			if (at + 7 + length === original.length) {
				view.setUint32(at + 3, length - 2, false);
				break;
			}
		}
	}
	return out;
}
