import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

// The detectors' own modules, not the engine's and digitiser's whole surface: the thread starts with the
// first upload of every sandbox, and telling what a file is needs neither sharp nor the digitiser.
import { detectArtwork } from '../../digitiser/detect';
import { identifyFormat } from '../../engine/registry';

/** One uploaded source to look at, by path; plain data for the inspection thread. */
export interface InspectionRequest {
	path: string;
	workflow: 'conversion' | 'digitising';
	fileName: string;
}

export interface Inspection {
	/** SHA-256 of the bytes, hex. */
	checksum: string;
	/** The detected machine format (conversion) or artwork type (digitising); null when neither. */
	kind: string | null;
	/** Why a conversion source is refused (when `kind` is null), in words that follow its file name. */
	refusal?: string;
}

/** Reads one source and says what it is; CPU work over uploaded bytes, so it runs in a worker thread. */
export async function inspectSource(request: InspectionRequest): Promise<Inspection> {
	const bytes = await readFile(request.path);
	const checksum = createHash('sha256').update(bytes).digest('hex');
	if (request.workflow === 'digitising') return { checksum, kind: detectArtwork(bytes) };
	const { format, refusal } = identifyFormat(bytes, request.fileName);
	return refusal === undefined ? { checksum, kind: format } : { checksum, kind: null, refusal };
}
