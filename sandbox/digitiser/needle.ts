import { Command, type Pattern } from '../engine';
import type { ExactPoints } from './fit';
import { ceil, hypot, max, min, round } from './math';

/** Stitch lengths and travel rules, in millimetres. */
export interface NeedleRules {
	/** Longest stitch the needle makes on a straight run before splitting it. */
	maxStitchMm: number;
	/**
	 * Length of the stitches of a hidden travel run: a run is cut into the whole number of equal
	 * stitches nearest this length, so none is much shorter.
	 */
	travelStitchMm: number;
	/** Jumps longer than this get the thread tied off and trimmed. */
	trimAfterMm: number;
	/** Length of each tie-in and tie-off stitch. */
	tieMm: number;
}

/**
 * Drives the needle over the pattern in working-pixel coordinates and writes design
 * units (0.1 mm, centred on the design). Knows when the thread is anchored, so it ties
 * in after every trim or colour change and ties off before each.
 */
export class Needle {
	private x = 0;
	private y = 0;
	private prevX = 0;
	private prevY = 0;
	/** True while the thread is anchored in the fabric (tied in, not yet trimmed). */
	anchored = false;
	/** Design units a pixel spans across and down. */
	private readonly unit: number;
	private readonly unitY: number;
	/** Every point written, in design units before the pattern rounds it (see `fitToWidth`). */
	readonly exact: ExactPoints = { xs: [], ys: [] };

	constructor(
		readonly pattern: Pattern,
		readonly pixelMm: number,
		private readonly offsetX: number,
		private readonly offsetY: number,
		readonly rules: NeedleRules,
		aspect = 1,
	) {
		this.unit = pixelMm * 10;
		this.unitY = this.unit * aspect;
	}

	get position(): [number, number] {
		return [this.x, this.y];
	}

	/** Pixels in a millimetre of fabric. */
	px(mm: number): number {
		return mm / this.pixelMm;
	}

	private emit(x: number, y: number, command: Command): void {
		const designX = x * this.unit - this.offsetX;
		const designY = y * this.unitY - this.offsetY;
		this.exact.xs.push(designX);
		this.exact.ys.push(designY);
		this.pattern.add(designX, designY, command);
	}

	/** Writes a command where the needle is (a colour change, the design's end). */
	mark(command: Command): void {
		this.emit(this.x, this.y, command);
	}

	private penetrate(x: number, y: number): void {
		this.emit(x, y, Command.Stitch);
		this.prevX = this.x;
		this.prevY = this.y;
		this.x = x;
		this.y = y;
	}

	/** Sews a straight line, split into equal stitches no longer than `maxMm`. */
	stitchTo(x: number, y: number, maxMm = this.rules.maxStitchMm): void {
		const length = hypot(x - this.x, y - this.y);
		if (length < 1e-6) return;
		if (!this.anchored) this.startThreadAt(this.x, this.y, x, y);
		const pieces = max(1, ceil(length / this.px(maxMm) - 1e-9));
		const fromX = this.x;
		const fromY = this.y;
		for (let p = 1; p <= pieces; p++) {
			this.penetrate(fromX + ((x - fromX) * p) / pieces, fromY + ((y - fromY) * p) / pieces);
		}
	}

	/**
	 * Moves to a new place: a run of stitches when the path lies inside the area about
	 * to be covered (hidden travel), otherwise a jump, trimmed when it is long.
	 */
	travelTo(x: number, y: number, hidden: boolean): void {
		const length = hypot(x - this.x, y - this.y);
		if (this.anchored && hidden) {
			const pieces = max(1, round(length / this.px(this.rules.travelStitchMm)));
			this.stitchTo(x, y, (length * this.pixelMm) / pieces);
			return;
		}
		if (this.anchored && length > this.px(this.rules.trimAfterMm)) this.tieOffAndTrim();
		if (this.anchored) {
			// The needle must go down where a jump lands, or the next stitch floats from the jump's start.
			this.emit(x, y, Command.Jump);
			this.x = x;
			this.y = y;
			this.penetrate(x, y);
			return;
		}
		this.x = x;
		this.y = y;
	}

	/** Jumps to the start, then locks the thread with small stitches towards the first target. */
	private startThreadAt(x: number, y: number, towardX: number, towardY: number): void {
		this.emit(x, y, Command.Jump);
		const length = hypot(towardX - x, towardY - y);
		const tie = min(this.px(this.rules.tieMm), length);
		this.anchored = true;
		this.x = x;
		this.y = y;
		this.penetrate(x, y);
		if (tie > this.px(0.2)) {
			const ux = ((towardX - x) / length) * tie;
			const uy = ((towardY - y) / length) * tie;
			this.penetrate(x + ux, y + uy);
			this.penetrate(x, y);
		}
	}

	/** Locks the thread with small stitches back along the last stitch, then cuts it. */
	tieOffAndTrim(): void {
		if (!this.anchored) return;
		this.tieOff();
		this.emit(this.x, this.y, Command.Trim);
	}

	/**
	 * Locks the thread with small stitches back along the last stitch and leaves it to be cut by
	 * what comes next: a colour change or the design's end cuts the thread on every machine (a
	 * multi-needle machine trims as it changes needle, a single-needle one stops for the thread to
	 * be changed), so a professional's file writes no trim there.
	 */
	tieOff(): void {
		if (!this.anchored) return;
		const length = hypot(this.prevX - this.x, this.prevY - this.y);
		const tie = min(this.px(this.rules.tieMm), length);
		if (tie > this.px(0.2)) {
			const endX = this.x;
			const endY = this.y;
			const ux = ((this.prevX - endX) / length) * tie;
			const uy = ((this.prevY - endY) / length) * tie;
			this.penetrate(endX + ux, endY + uy);
			this.penetrate(endX, endY);
		}
		this.anchored = false;
	}
}
