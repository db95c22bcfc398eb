import sharp from 'sharp';

import { Command } from '../../sandbox/engine/pattern';
import { digitise, threadPalettes } from '../../sandbox/digitiser';

const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="white"/><circle cx="150" cy="150" r="100" fill="#d00"/><rect x="260" y="60" width="100" height="180" fill="#0050a0"/></svg>`;

describe('digitise', () => {
	it('offers the generic palette and three thread makers', () => {
		expect(threadPalettes.map((palette) => palette.key)).toEqual(['generic', 'madeira', 'isacord', 'robison-anton']);
	});

	it('turns a two-colour logo into two colour blocks of real threads', async () => {
		const png = await sharp(Buffer.from(logoSvg)).png().toBuffer();
		const { pattern } = await digitise(png, { widthMm: 100, colourCount: 4, paletteKey: 'madeira' });
		expect(pattern.threads.map((thread) => thread.brand)).toEqual(['Madeira', 'Madeira']);
		let colourChanges = 0;
		for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === Command.ColorChange) colourChanges++;
		expect(colourChanges).toBe(1);
		expect(pattern.commands[pattern.length - 1]).toBe(Command.End);
	});
});
