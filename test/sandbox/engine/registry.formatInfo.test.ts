/**
 * What GET /formats says about each format must match what its reader and writer do:
 * a format that loses or changes thread colours, or cannot keep a stop, says so.
 */
import { listFormats, readPattern, writePattern } from '../../../sandbox/engine';
import { formatModules } from '../../../sandbox/engine/formats';
import { countCommands } from '../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../sandbox/engine/pattern';

function threeColourDesignWithStop(): Pattern {
	const pattern = new Pattern();
	for (let block = 0; block < 3; block++) {
		for (let i = 0; i < 20; i++) pattern.add(block * 100 + (i % 2) * 30, i * 5, Command.Stitch);
		if (block === 1) pattern.add(pattern.lastX(), pattern.lastY(), Command.Stop);
		pattern.add(pattern.lastX() + 10, pattern.lastY(), Command.Stitch);
		if (block < 2) pattern.add(pattern.lastX(), pattern.lastY(), Command.ColorChange);
	}
	pattern.threads = [
		{ color: 0x123456, name: 'Deep Blue', catalogNumber: '1001' },
		{ color: 0xfedcba, name: 'Pale Pink', catalogNumber: '1002' },
		{ color: 0x0f0f0f, name: 'Near Black', catalogNumber: '1003' },
	];
	return pattern;
}

describe.each(listFormats().map((info) => ({ ...info })))('$format format info', (info) => {
	const module = formatModules.find((candidate) => candidate.info.format === info.format)!;

	it('names itself plainly and matches what its module can do', () => {
		expect(info.format).toMatch(/^[a-z0-9]+$/);
		expect(info.extension).toMatch(/^[a-z0-9]+$/);
		expect(info.label.length).toBeGreaterThan(2);
		expect(info.mimeType).toMatch(/^application\/[\w.+-]+$/);
		expect(info.readable).toBe(Boolean(module.read));
		expect(info.writable).toBe(Boolean(module.write));
		expect(info.warning === null || info.warning.length > 20).toBe(true);
	});

	if (!info.writable || !info.readable) return;

	it('warns about colours when it loses or changes them', () => {
		const design = threeColourDesignWithStop();
		const back = readPattern(writePattern(design, info.format).bytes, info.format);
		const kept = design.threads.every(
			(thread, index) => (back.threads[index]?.color ?? -1) === thread.color,
		);
		if (!kept) expect(info.warning).toMatch(/colou?r/i);
	});

	it('warns about stops when it cannot keep them', () => {
		const design = threeColourDesignWithStop();
		const back = readPattern(writePattern(design, info.format).bytes, info.format);
		if (countCommands(back, Command.Stop) === 0) expect(info.warning).toMatch(/stop/i);
	});
});
