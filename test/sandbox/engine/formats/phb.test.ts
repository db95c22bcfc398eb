import { phbFormat } from '../../../../sandbox/engine/formats/phb';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { fixture } from '../../../support/embroideryFiles';

const read = phbFormat.read!;
const stitchSection = 0x2e4;

describe('PHB reader', () => {
	it('finds the stitch section by following the header, and refuses a chain that leads elsewhere', () => {
		const bytes = fixture('Star.phb');
		expect(bytes[stitchSection]).toBe(2);
		bytes.writeUInt32LE(bytes.readUInt32LE(0x54) + 40, 0x54);
		expect(phbFormat.detect!(bytes)).toBe(false);
		expect(() => read(bytes)).toThrow(/PHB file is damaged/);
	});

	it("refuses a stitch section whose colour list is not the header's", () => {
		const bytes = fixture('Star.phb');
		bytes[stitchSection + 2] = 5;
		expect(() => read(bytes)).toThrow(/does not repeat the header's colour list/);
	});

	it('refuses a header naming more colour blocks than the file holds, before reading them', () => {
		const bytes = fixture('Star.phb');
		bytes.writeUInt16LE(0xffff, 0x71);
		expect(() => read(bytes)).toThrow(/names 65535 colour blocks/);
	});

	it('reads a repeated chart colour as a stop, as Brother machines pause there', () => {
		const bytes = fixture('Star.phb');
		bytes[0x74] = bytes[0x73];
		bytes[stitchSection + 2] = bytes[stitchSection + 1];
		const pattern = read(bytes);
		expect(countCommands(pattern, Command.Stop)).toBe(1);
		expect(countCommands(pattern, Command.ColorChange)).toBe(0);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Vermilion']);
	});

	it('reads a file cut short to the cut, and refuses one whose sections disagree on where it ends', () => {
		const bytes = fixture('Star.phb');
		expect(read(bytes.subarray(0, bytes.length - 1)).warnings[0]).toMatch(
			/^The file ends early \(without its end-of-design marker\)/,
		);
		// One section says the file ends a byte further on, the other where it ends: damaged, not cut.
		const disagreeing = Uint8Array.from([...bytes, 0]);
		expect(() => read(disagreeing)).toThrow(/PHB file is damaged/);
	});
});
