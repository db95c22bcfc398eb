/** The two kinds of job: a machine file converted to another format, or artwork digitised into one. */
export type Workflow = 'conversion' | 'digitising';
export const workflows: Workflow[] = ['conversion', 'digitising'];

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** What a job's history records: its status changes, and a client's retry and unlock. */
export type JobEventType =
	| 'created'
	| 'processing'
	| 'completed'
	| 'failed'
	| 'requeued'
	| 'retried'
	| 'unlocked';

/** What a stored file is to its job. */
export type UploadRole = 'source' | 'output' | 'preview' | 'preview_watermarked';

/** The finished widths, in mm, a digitising job may ask for (the spec's bounds of width_mm). */
export const widthMmBounds = { min: 10, max: 300 };

/** A job's digitising options; all null for a conversion, except the stitch ceiling. */
export interface DigitisingOptions {
	widthMm: number | null;
	colourCount: number | null;
	paletteKey: string | null;
	maximumStitchCount: number | null;
}
