/** Thread palettes the service names: `generic` plus three thread makers (the editor's list for Create). */
export const threadPalettes = [
	{ key: 'generic', label: 'Generic' },
	{ key: 'madeira', label: 'Madeira' },
	{ key: 'isacord', label: 'Isacord' },
	{ key: 'robison-anton', label: 'Robison-Anton' },
] as const;
