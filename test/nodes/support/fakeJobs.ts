/** Spec-shaped bodies for tests that script the service's answers. */
export const freeUsage = {
	limited: false,
	previewRemaining: 0,
	creditBalance: 10,
	digitisingCreditCost: 2,
	conversionCreditCost: 1,
};

export function detailedJob(id: string, status: string, extra: Record<string, unknown> = {}) {
	return {
		job: { id, status, formats: ['pes'], warnings: [], downloadsUnlocked: false, ...extra },
	};
}

export function listItem(id: string, status: string, kind = 'conversion') {
	return { id, kind, status, formats: ['pes'], downloadsUnlocked: false };
}

export const jobIds = {
	a: '01J9Z3Q4W8Y6V5T2R1P0N9M8KA',
	b: '01J9Z3Q4W8Y6V5T2R1P0N9M8KB',
	c: '01J9Z3Q4W8Y6V5T2R1P0N9M8KC',
	d: '01J9Z3Q4W8Y6V5T2R1P0N9M8KD',
	e: '01J9Z3Q4W8Y6V5T2R1P0N9M8KE',
};

/** A key shaped like a real one, for the tests that check it never shows in what the node gives back. */
export const secretApiKey = 'emb_live_SECRET-key-1234567890';

/** GET /usage of a limited account: 3 free previews, 5 credits. */
export const limitedUsage = {
	freeUsage: {
		limited: true,
		previewRemaining: 3,
		creditBalance: 5,
		digitisingCreditCost: 2,
		conversionCreditCost: 1,
	},
};

/** A conversion job as POST /jobs gives it back, just queued. */
export const queuedJob = {
	id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
	workflow: 'conversion',
	status: 'queued',
};
