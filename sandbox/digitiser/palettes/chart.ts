/** One thread maker's colour card: what the palette snapping matches against. */
export interface ThreadChart {
	key: string;
	label: string;
	/** Thread maker, written into each thread of the pattern; empty for the generic palette. */
	brand: string;
	/** Catalogue number (empty when the palette has none), colour name, 0xRRGGBB. */
	colours: Array<[string, string, number]>;
}
