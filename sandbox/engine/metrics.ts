import { boundsOf, Command, type Bounds, type Pattern } from './pattern';

/** What a job reports about its design: counts, colours and the sewn size. */
export interface PatternMetrics {
	/** Needle-down stitches; jumps, trims and colour changes are not stitches. */
	stitchCount: number;
	jumpCount: number;
	trimCount: number;
	/** Colour blocks that sew at least one stitch (one thread each on the machine). */
	colourCount: number;
	colourChanges: number;
	/** Extent of the needle-down stitches, rounded to 0.1 mm. */
	widthMm: number;
	heightMm: number;
}

const needleDown: readonly Command[] = [Command.Stitch];

/** Bounds of the needle-down stitches in 0.1 mm, or null when nothing is sewn. */
export function stitchBounds(pattern: Pattern): Bounds | null {
	return boundsOf(pattern, needleDown);
}

export function measurePattern(pattern: Pattern): PatternMetrics {
	const { commands, length } = pattern;
	let stitchCount = 0;
	let jumpCount = 0;
	let trimCount = 0;
	let colourChanges = 0;
	let colourCount = 0;
	let blockSewn = false;
	for (let i = 0; i < length; i++) {
		switch (commands[i]) {
			case Command.Stitch:
				stitchCount++;
				if (!blockSewn) colourCount++;
				blockSewn = true;
				break;
			case Command.Jump:
				jumpCount++;
				break;
			case Command.Trim:
				trimCount++;
				break;
			case Command.ColorChange:
				colourChanges++;
				blockSewn = false;
				break;
		}
	}
	const bounds = stitchBounds(pattern);
	return {
		stitchCount,
		jumpCount,
		trimCount,
		colourCount,
		colourChanges,
		// Coordinates are whole 0.1 mm units, so dividing by ten is already exact to 0.1 mm.
		widthMm: bounds ? Math.round(bounds.maxX - bounds.minX) / 10 : 0,
		heightMm: bounds ? Math.round(bounds.maxY - bounds.minY) / 10 : 0,
	};
}
