import { Command, type Pattern } from '../engine';

/** What one thread's colour block costs the machine. */
export interface ColourBlockMetrics {
	thread: string;
	stitches: number;
	jumps: number;
	trims: number;
}

/** The digitiser's own figures about a design, beside the engine's counts and sewn size (`measurePattern`). */
export interface DigitiseMetrics {
	/** The finished width asked for (`width_mm`). */
	requestedWidthMm: number;
	/** Fabric the design covers, mm² (its area, not its bounding box). */
	coveredAreaMm2: number;
	/** Stitches per cm² of covered area. */
	stitchesPerCm2: number;
	/** One entry per colour block, in sewing order. */
	colourBlocks: ColourBlockMetrics[];
}

export function designMetrics(
	pattern: Pattern,
	requestedWidthMm: number,
	coveredAreaMm2: number,
): DigitiseMetrics {
	const blocks: ColourBlockMetrics[] = [];
	const blockAt = (index: number) => {
		const thread = pattern.threads[index];
		return {
			thread: thread
				? thread.catalogNumber
					? `${thread.catalogNumber} ${thread.name}`
					: (thread.name ?? '')
				: '',
			stitches: 0,
			jumps: 0,
			trims: 0,
		};
	};
	let block = blockAt(0);
	blocks.push(block);
	let stitches = 0;
	for (let i = 0; i < pattern.length; i++) {
		switch (pattern.commands[i]) {
			case Command.Stitch:
				block.stitches++;
				stitches++;
				break;
			case Command.Jump:
				block.jumps++;
				break;
			case Command.Trim:
				block.trims++;
				break;
			case Command.ColorChange:
				block = blockAt(blocks.length);
				blocks.push(block);
				break;
		}
	}
	return {
		requestedWidthMm,
		coveredAreaMm2: Math.round(coveredAreaMm2 * 10) / 10,
		stitchesPerCm2:
			coveredAreaMm2 > 0 ? Math.round((stitches / (coveredAreaMm2 / 100)) * 10) / 10 : 0,
		colourBlocks: blocks,
	};
}
