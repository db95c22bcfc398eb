import { threadPalettes } from '../digitiser';
import { widthMmBounds, type DigitisingOptions } from '../domain/jobs';

const threadPaletteKeys = threadPalettes.map((palette) => palette.key);

/**
 * Reads width_mm, colour_count, thread_palette_key and maximum_stitch_count with the spec's bounds.
 * Width and colour count are required for digitising; any field that is sent must be valid.
 */
export function readDigitisingOptions(
	fields: Record<string, string>,
	digitising: boolean,
	fail: (field: string, message: string) => void,
): DigitisingOptions {
	const number = (
		field: string,
		label: string,
		min: number,
		max: number,
		integer: boolean,
		required: boolean,
	) => {
		const raw = fields[field]?.trim();
		if (raw === undefined || raw === '') {
			if (required) fail(field, `The ${label} field is required for digitising.`);
			return null;
		}
		const value = Number(raw);
		if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
			fail(field, `The ${label} must be ${integer ? 'a whole number' : 'a number'}.`);
			return null;
		}
		if (value < min || value > max) {
			fail(field, `The ${label} must be between ${min} and ${max}.`);
			return null;
		}
		return value;
	};
	const widthMm = number(
		'width_mm',
		'width_mm',
		widthMmBounds.min,
		widthMmBounds.max,
		false,
		digitising,
	);
	const colourCount = number('colour_count', 'colour_count', 1, 24, true, digitising);
	const maximumStitchCount = number(
		'maximum_stitch_count',
		'maximum_stitch_count',
		1,
		250000,
		true,
		false,
	);
	const paletteKey = fields.thread_palette_key?.trim() || null;
	if (paletteKey !== null && !threadPaletteKeys.includes(paletteKey)) {
		fail(
			'thread_palette_key',
			`The thread_palette_key must be one of: ${threadPaletteKeys.join(', ')}.`,
		);
	}
	return {
		widthMm: digitising ? widthMm : null,
		colourCount: digitising ? colourCount : null,
		paletteKey: digitising ? (paletteKey ?? 'generic') : null,
		maximumStitchCount,
	};
}
