import { Command, type Bounds, type Pattern } from '../pattern';
import type { ByteBuilder } from './binaryIo';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Stop: STOP, ColorChange: COLOR_CHANGE, End: END } = Command;

/** Brother machines show these 48 x 38 one-bit thumbnails in their design list. */
const pecIconWidth = 48;
export const pecIconHeight = 38;
export const pecIconStride = pecIconWidth / 8;
const margin = 4;

function setPixel(icon: Uint8Array, x: number, y: number): void {
	if (x < 0 || y < 0 || x >= pecIconWidth || y >= pecIconHeight) return;
	icon[y * pecIconStride + (x >> 3)] |= 1 << (x & 7);
}

/** An empty icon with the rounded frame Brother's own software draws. */
function framedIcon(): Uint8Array {
	const icon = new Uint8Array(pecIconStride * pecIconHeight);
	const last = pecIconHeight - 1;
	for (let x = 4; x < pecIconWidth - 4; x++) {
		setPixel(icon, x, 1);
		setPixel(icon, x, last - 1);
	}
	for (let y = 2; y < last - 1; y++) {
		const inset = y === 2 || y === last - 2 ? 3 : y === 3 || y === last - 3 ? 2 : 1;
		setPixel(icon, inset, y);
		setPixel(icon, pecIconWidth - 1 - inset, y);
	}
	return icon;
}

function drawLine(icon: Uint8Array, x0: number, y0: number, x1: number, y1: number): void {
	const dx = Math.abs(x1 - x0);
	const dy = -Math.abs(y1 - y0);
	const stepX = x0 < x1 ? 1 : -1;
	const stepY = y0 < y1 ? 1 : -1;
	let error = dx + dy;
	for (;;) {
		setPixel(icon, x0, y0);
		if (x0 === x1 && y0 === y1) return;
		const doubled = 2 * error;
		if (doubled >= dy) {
			error += dy;
			x0 += stepX;
		}
		if (doubled <= dx) {
			error += dx;
			y0 += stepY;
		}
	}
}

/**
 * Write the design's icon followed by one icon per colour block (blocks end at colour changes and
 * stops), each showing the stitches as lines scaled into the frame.
 */
export function writePecIcons(
	out: ByteBuilder,
	pattern: Pattern,
	extents: Bounds,
	blockCount: number,
): void {
	const width = Math.max(1, extents.maxX - extents.minX);
	const height = Math.max(1, extents.maxY - extents.minY);
	const scale = Math.min(
		(pecIconWidth - 2 * margin - 1) / width,
		(pecIconHeight - 2 * margin - 1) / height,
	);
	const offsetX = (pecIconWidth - width * scale) / 2;
	const offsetY = (pecIconHeight - height * scale) / 2;
	const { xs, ys, commands, length } = pattern;
	const whole = framedIcon();
	const blocks = Array.from({ length: blockCount }, framedIcon);
	let icon = blocks[0];
	let block = 0;
	let penDown = false;
	let lastX = 0;
	let lastY = 0;
	for (let i = 0; i < length; i++) {
		const command = commands[i];
		if (command === END) break;
		if (command === COLOR_CHANGE || command === STOP) {
			block = Math.min(block + 1, blockCount - 1);
			icon = blocks[block];
			penDown = false;
			continue;
		}
		if (command !== STITCH) {
			penDown = false;
			continue;
		}
		// Coordinates are at or right of the extents' corner, so truncation is the floor.
		const x = ((xs[i] - extents.minX) * scale + offsetX) | 0;
		const y = ((ys[i] - extents.minY) * scale + offsetY) | 0;
		// Most stitches land on or next to the last pixel at this scale: no line to draw.
		if (!penDown || (Math.abs(x - lastX) <= 1 && Math.abs(y - lastY) <= 1)) {
			setPixel(whole, x, y);
			if (icon) setPixel(icon, x, y);
		} else {
			drawLine(whole, lastX, lastY, x, y);
			if (icon) drawLine(icon, lastX, lastY, x, y);
		}
		penDown = true;
		lastX = x;
		lastY = y;
	}
	out.bytes(whole);
	for (const icon of blocks) out.bytes(icon);
}
