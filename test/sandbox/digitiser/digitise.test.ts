import sharp from 'sharp';

import { Command } from '../../../sandbox/engine/pattern';
import { digitise, threadPalettes } from '../../../sandbox/digitiser';

const logoSvg =
	`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" ` +
	`height="300" fill="white"/><circle cx="150" cy="150" r="100" fill="#d00"/><rect x="260" ` +
	`y="60" width="100" height="180" fill="#0050a0"/></svg>`;

describe('digitise', () => {
	it('offers the generic palette and three thread makers', () => {
		expect(threadPalettes.map((palette) => palette.key)).toEqual([
			'generic',
			'madeira',
			'isacord',
			'robison-anton',
		]);
	});

	it('turns a two-colour logo into two colour blocks of real threads', async () => {
		const png = await sharp(Buffer.from(logoSvg)).png().toBuffer();
		const { pattern } = await digitise(png, {
			widthMm: 100,
			colourCount: 4,
			paletteKey: 'madeira',
		});
		expect(pattern.threads.map((thread) => thread.brand)).toEqual(['Madeira', 'Madeira']);
		let colourChanges = 0;
		for (let i = 0; i < pattern.length; i++)
			if (pattern.commands[i] === Command.ColorChange) colourChanges++;
		expect(colourChanges).toBe(1);
		expect(pattern.commands[pattern.length - 1]).toBe(Command.End);
	});

	it('says when two distinct artwork colours had to share one thread', async () => {
		const svg =
			`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="300" ` +
			`height="150" fill="white"/><rect x="10" y="10" width="130" height="130" ` +
			`fill="#e60000"/><rect x="160" y="10" width="130" height="130" fill="#f01e3c"/></svg>`;
		const { pattern, warnings } = await digitise(await sharp(Buffer.from(svg)).png().toBuffer(), {
			widthMm: 60,
			colourCount: 4,
		});
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Red']);
		expect(warnings.join(' ')).toMatch(/both match Red; they were merged/);
	});

	it('with one colour allowed, sews the whole design in its dominant colour rather than a muddy average', async () => {
		const png = await sharp(Buffer.from(logoSvg)).png().toBuffer();
		const { pattern } = await digitise(png, { widthMm: 60, colourCount: 1 });
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Red']);
	});
});
