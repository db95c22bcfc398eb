import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { compareEvents, loadFixture, patternEvents } from '../support/referenceDecoding';

const read = dstFormat.read!;
const write = dstFormat.write!;

function headerText(bytes: Uint8Array): string {
	return Buffer.from(bytes.subarray(0, 512)).toString('latin1');
}

function records(bytes: Uint8Array): number[][] {
	const list: number[][] = [];
	for (let offset = 512; offset + 3 <= bytes.length; offset += 3) {
		list.push([bytes[offset], bytes[offset + 1], bytes[offset + 2]]);
	}
	return list;
}

function headerWith(lines: string): Uint8Array {
	return new Uint8Array(Buffer.from((lines + '\x1a').padEnd(512, ' '), 'latin1'));
}

describe('DST reader', () => {
	const fixture = loadFixture('Star.DST');

	it('reads the runs of jumps after the colour change as one trim, never before the first stitch', () => {
		const pattern = read(fixture.bytes);
		const trims: number[] = [];
		for (let i = 0; i < pattern.length; i++)
			if (pattern.commands[i] === Command.Trim) trims.push(i);
		// The file opens with 5 jumps (nothing sewn yet) and changes colour before its 8 jumps: neither cuts thread.
		expect(trims).toEqual([]);
	});

	it('turns three jumps after sewing into a trim at the last stitch', () => {
		const stitchDown = [0x00, 0x00, 0x03];
		const moveRight = [0x01, 0x00, 0x03];
		const zeroJump = [0x00, 0x00, 0x83];
		const jumpRight9 = [0x04, 0x00, 0x83];
		const end = [0x00, 0x00, 0xf3];
		const body = [moveRight, stitchDown, zeroJump, zeroJump, jumpRight9, moveRight, end].flat();
		const bytes = new Uint8Array([...headerWith('LA:trim'), ...body]);
		const pattern = read(bytes);
		const listed = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.ys[i],
			pattern.commands[i],
		]);
		expect(listed).toEqual([
			[1, 0, Command.Stitch],
			[1, 0, Command.Stitch],
			[1, 0, Command.Trim],
			[10, 0, Command.Jump],
			[11, 0, Command.Stitch],
			[11, 0, Command.End],
		]);
	});

	it('decodes every balanced-ternary digit with y pointing down', () => {
		// +81 x (b2 bit 2), -27 x (b1 bit 3), +9 y (b0 bit 5) and -1 y (b0 bit 6): a stitch to (54, -8).
		const bytes = new Uint8Array([
			...headerWith('LA:digits'),
			0x20 | 0x40,
			0x08,
			0x04 | 0x03,
			0,
			0,
			0xf3,
		]);
		const pattern = read(bytes);
		expect([pattern.xs[0], pattern.ys[0], pattern.commands[0]]).toEqual([54, -8, Command.Stitch]);
	});

	it('ignores sequin mode: the sequin moves become plain jumps', () => {
		const sequinMode = [0x00, 0x00, 0x43];
		const sequinDrop = [0x01, 0x00, 0x83];
		const stitch = [0x01, 0x00, 0x03];
		const body = [
			stitch,
			sequinMode,
			sequinDrop,
			sequinDrop,
			sequinDrop,
			sequinMode,
			stitch,
			[0, 0, 0xf3],
		].flat();
		const pattern = read(new Uint8Array([...headerWith('LA:sequins'), ...body]));
		expect(countCommands(pattern, Command.Trim)).toBe(0);
		expect(countCommands(pattern, Command.Jump)).toBe(3);
		expect([pattern.xs[pattern.length - 2], pattern.commands[pattern.length - 2]]).toEqual([
			5,
			Command.Stitch,
		]);
	});

	it('reads thread colours from the extended header', () => {
		const header = headerWith(
			'LA:colours\rST:      1\rCO:  0\rTC:#ff8000,Orange,1234\rTC:102030,,\r',
		);
		const pattern = read(new Uint8Array([...header, 0, 0, 0xf3]));
		expect(pattern.threads).toEqual([
			{ color: 0xff8000, name: 'Orange', catalogNumber: '1234' },
			{ color: 0x102030 },
		]);
	});

	it('rejects a file shorter than the header with a clear error', () => {
		expect(() => read(new Uint8Array(100))).toThrow(UnreadableSourceError);
		expect(() => read(new Uint8Array(100))).toThrow(/512-byte header/);
	});

	it('refuses what DST never holds: no header, a record without its set bits, an early END', () => {
		const star = fixture.bytes;
		const noHeader = star.slice();
		noHeader.fill(0x20, 0, 128);
		expect(() => read(noHeader)).toThrow(/does not start with a Tajima header/);
		const badRecord = star.slice();
		badRecord[512 + 3 * 10 + 2] &= 0xfc;
		expect(() => read(badRecord)).toThrow(/record 11 lacks the two bits/);
		// Star.DST's header declares its 2,567 records; 1,000 records and an END are far fewer.
		const cut = Uint8Array.from([...star.subarray(0, 512 + 3 * 1000), 0, 0, 0xf3]);
		expect(() => read(cut)).toThrow(/declares 2567 records, but its END record comes after 1001/);
		// One record turned into END in the middle of the design: the rest would be lost silently.
		const stray = star.slice();
		stray.set([0, 0, 0xf3], 512 + 3 * 2000);
		expect(() => read(stray)).toThrow(/declares 2567 records/);
	});

	it("refuses records that reach well past the header's extents, and reads them within", () => {
		const narrow = fixture.bytes.slice();
		// Star.DST declares +X 296: say 200 instead.
		narrow.set(Buffer.from('+X:  200\r', 'latin1'), fixture.bytes.indexOf(0x2b));
		expect(() => read(narrow)).toThrow(
			/declares extents of \+X 200, -X 295, \+Y 311, -Y 312 \(0\.1 mm\), but its records reach from \(-295, -312\)/,
		);
		expect(read(fixture.bytes).length).toBeGreaterThan(2500);
	});

	it('reads what real writers leave: extents a few per cent short, records after the END that move nothing', () => {
		const star = fixture.bytes;
		// A real commercial DST (crown.dst) declares +Y 240 and -Y 267 but stitches 263 up: 23 over, 4.5% of
		// its height. Star.DST sews 311 up; here its header says 288.
		const short = star.slice();
		short.set(Buffer.from('+Y:  288\r', 'latin1'), star.indexOf(0x2b, 40));
		expect(headerText(short)).toContain('+Y:  288\r-Y:  312');
		expect(read(short).length).toBe(read(star).length);
		// Another (fs no 50.dst) declares 10,283 records and ends 00 00 F3, 00 00 03, 00 00 F3: its writer
		// counted a zero-length stitch and a second END after the first.
		const counted = Uint8Array.from([...star, 0, 0, 0x03, 0, 0, 0xf3]);
		counted.set(Buffer.from('ST:   2569\r', 'latin1'), 20);
		expect(read(counted).length).toBe(read(star).length);
		// Records after the END that move are the rest of a design: still refused.
		const moving = Uint8Array.from([...star, 0x01, 0, 0x03, 0, 0, 0xf3]);
		moving.set(Buffer.from('ST:   2569\r', 'latin1'), 20);
		expect(() => read(moving)).toThrow(
			/declares 2569 records, but its END record comes after 2567/,
		);
	});

	it('reads +Y and -Y the other way round, as pyembroidery (and so Ink/Stitch) writes them', () => {
		// A design sewn 40 mm down from its start: its header says +Y 0 and -Y 400.
		const pattern = new Pattern();
		for (let y = 0; y <= 400; y += 20) pattern.add(y % 40 === 0 ? 0 : 30, y, Command.Stitch);
		pattern.add(30, 400, Command.End);
		const right = write(pattern).bytes;
		expect(headerText(right)).toContain('+Y:    0\r-Y:  400\r');
		// pyembroidery writes the extent below the start as +Y (the dev set's octopus.dst, lobster.dst, ...).
		const swapped = right.slice();
		swapped.set(Buffer.from('+Y:  400\r-Y:    0\r', 'latin1'), headerText(right).indexOf('+Y'));
		expect(read(swapped).length).toBe(read(right).length);
		// Records that fit neither way round are still refused.
		const short = right.slice();
		short.set(Buffer.from('+Y:  100\r-Y:    0\r', 'latin1'), headerText(right).indexOf('+Y'));
		expect(() => read(short)).toThrow(/declares extents of \+X 30, -X 0, \+Y 100, -Y 0/);
	});

	it('reads a file that ends without its END record, or mid-record, up to its last whole record and says so', () => {
		const star = fixture.bytes;
		const whole = read(star);
		const stitches = countCommands(whole, Command.Stitch);
		const noEnd = read(star.subarray(0, star.length - 3));
		expect(countCommands(noEnd, Command.Stitch)).toBe(stitches);
		expect(noEnd.warnings).toEqual([
			`The file ends early (without its END record): read ${stitches.toLocaleString('en-US')} stitches, ` +
				'2,566 of the 2,567 records its header declares. The rest of the design is missing; check the file.',
		]);
		// Cut in the middle of record 1,201: 1,200 whole records are read.
		const partial = read(star.subarray(0, 512 + 3 * 1200 + 2));
		expect(partial.warnings[0]).toMatch(
			/^The file ends early \(in the middle of a record, without its END record\): read [\d,]+ stitches, 1,200 of/,
		);
		expect(
			compareEvents(patternEvents(whole).slice(0, 1100), patternEvents(partial).slice(0, 1100))
				.differences,
		).toEqual([]);
		expect(whole.warnings).toEqual([]);
	});
});

describe('DST writer', () => {
	it('writes the standard header with counts, extents and the end point', () => {
		const pattern = new Pattern();
		pattern.add(0, 0, Command.Stitch);
		pattern.add(100, -50, Command.Stitch);
		pattern.add(-20, 70, Command.Stitch);
		pattern.add(-20, 70, Command.ColorChange);
		pattern.add(20, 10, Command.Stitch);
		pattern.add(20, 10, Command.End);
		const { bytes } = write(pattern);
		const header = headerText(bytes);
		expect(header.slice(0, 20)).toBe('LA:Untitled        \r');
		expect(header).toContain('ST:      6\r');
		expect(header).toContain('CO:  1\r');
		expect(header).toContain('+X:  100\r-X:   20\r+Y:   50\r-Y:   70\r');
		expect(header).toContain('AX:+   20\rAY:-   10\r');
		expect(header.indexOf('\x1a')).toBeGreaterThan(0);
		expect(bytes.length).toBe(512 + 3 * 6);
		expect(records(bytes).at(-1)).toEqual([0, 0, 0xf3]);
	});

	it('splits moves longer than 121 and keeps every record within the ternary range', () => {
		const pattern = new Pattern();
		pattern.add(0, 0, Command.Stitch);
		pattern.add(1000, -500, Command.Jump);
		pattern.add(1250, -500, Command.Stitch);
		pattern.add(1250, -500, Command.End);
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(warnings.join(' ')).toMatch(/split/);
		expect([back.xs[back.length - 2], back.ys[back.length - 2]]).toEqual([1250, -500]);
		for (let i = 1; i < back.length; i++) {
			expect(Math.abs(back.xs[i] - back.xs[i - 1])).toBeLessThanOrEqual(121);
			expect(Math.abs(back.ys[i] - back.ys[i - 1])).toBeLessThanOrEqual(121);
		}
		// The 250 long stitch became 3 stitches of at most 121 on the same line.
		expect(countCommands(back, Command.Stitch)).toBe(4);
	});

	it('writes a trim as three zero-length jumps that read back as one trim', () => {
		const pattern = new Pattern();
		pattern.add(10, 10, Command.Stitch);
		pattern.add(10, 10, Command.Trim);
		pattern.add(60, 10, Command.Jump);
		pattern.add(65, 10, Command.Stitch);
		pattern.add(65, 10, Command.End);
		const { bytes } = write(pattern);
		expect(records(bytes).slice(1, 4)).toEqual([
			[0, 0, 0x83],
			[0, 0, 0x83],
			[0, 0, 0x83],
		]);
		// The move to (60, 10) follows as a jump: +81 -27 -3 -1 = 50.
		expect(records(bytes)[4]).toEqual([0x02, 0x08 | 0x02, 0x83 | 0x04]);
		const back = read(bytes);
		expect(countCommands(back, Command.Trim)).toBe(1);
		expect(compareEvents(patternEvents(pattern), patternEvents(back)).differences).toEqual([]);
	});

	it('writes stops as colour changes and says so', () => {
		const pattern = new Pattern();
		pattern.add(5, 5, Command.Stitch);
		pattern.add(5, 5, Command.Stop);
		pattern.add(9, 5, Command.Stitch);
		pattern.threads = [{ color: 0x00ff00, name: 'Green' }];
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(countCommands(back, Command.ColorChange)).toBe(1);
		expect(back.threads).toEqual([
			{ color: 0x00ff00, name: 'Green' },
			{ color: 0x00ff00, name: 'Green' },
		]);
		expect(warnings.join(' ')).toMatch(/stop/);
	});

	it('keeps thread colours in the extended header and drops those that do not fit', () => {
		const pattern = new Pattern();
		for (let block = 0; block < 40; block++) {
			pattern.add(block, 1, Command.Stitch);
			pattern.add(block, 1, Command.ColorChange);
		}
		pattern.threads = Array.from({ length: 40 }, (_, i) => ({
			color: i * 0x010203,
			name: `Thread, number ${i}`,
		}));
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(back.threads.length).toBeGreaterThan(5);
		expect(back.threads.length).toBeLessThan(40);
		expect(back.threads.every((thread) => thread.name === undefined)).toBe(true);
		expect(back.threads[3]).toEqual({ color: 3 * 0x010203 });
		expect(warnings.join(' ')).toMatch(/fit in the DST header/);
	});

	it('round-trips Star.DST without moving a single needle position', () => {
		const original = read(loadFixture('Star.DST').bytes);
		const back = read(write(original).bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
	});
});
