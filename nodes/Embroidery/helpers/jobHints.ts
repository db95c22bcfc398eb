import type { IDataObject, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { hintAdvice } from '../transport';

/** More jobs than this with warnings are summed up in one last hint, so the output pane stays readable. */
const maxWarningHints = 10;

/**
 * Execution hints for the job items a node put out, in plain words with the next step: job
 * warnings, locked machine files, a watermarked preview, failed jobs. Pure: the caller adds them
 * with `addExecutionHints` where the n8n version has it.
 */
export function jobHints(items: readonly INodeExecutionData[]): NodeExecutionHint[] {
	const jobs = items.map((item) => item.json).filter(isJob);
	const hints: NodeExecutionHint[] = [];

	const failed = jobs.filter((job) => job.status === 'failed');
	if (failed.length > 0) {
		const [first] = failed;
		const reason =
			typeof first.failureReason === 'string' && first.failureReason
				? first.failureReason
				: 'no reason given';
		hints.push({
			type: 'danger',
			location: 'outputPane',
			message:
				failed.length === 1
					? `Job ${String(first.id)} failed: ${reason}. ${hintAdvice.retryFailedJob}`
					: `${failed.length} jobs failed (job ${String(first.id)}: ${reason}). ` +
						hintAdvice.retryFailedJobs,
		});
	}

	// One hint per job with warnings (the service asks that they be shown), the rest summed up.
	const warned = jobs.filter((job) => warningsOf(job).length > 0);
	for (const job of warned.slice(0, maxWarningHints)) {
		const warnings = warningsOf(job);
		hints.push({
			type: 'warning',
			location: 'outputPane',
			message:
				`Job ${String(job.id)} has ${plural(warnings.length, 'warning')}: ${warnings.join(' ')} ` +
				hintAdvice.checkWarnings,
		});
	}
	if (warned.length > maxWarningHints) {
		hints.push({
			type: 'warning',
			location: 'outputPane',
			message: `${warned.length - maxWarningHints} more jobs have warnings; see "warnings" on their items.`,
		});
	}

	const locked = jobs.filter(
		(job) => job.status === 'completed' && job.downloadsUnlocked === false,
	);
	if (locked.length > 0) {
		const watermarked = locked.filter(hasDownloadedPreview).length;
		const what =
			locked.length === 1
				? `The machine files of job ${String(locked[0].id)} are locked`
				: `The machine files of ${locked.length} jobs are locked`;
		const preview =
			watermarked === 0
				? ''
				: watermarked === 1 && locked.length === 1
					? ', and its preview is watermarked'
					: `, and ${plural(watermarked, 'preview')} ${watermarked === 1 ? 'is' : 'are'} watermarked`;
		hints.push({
			type: 'info',
			location: 'outputPane',
			message: `${what}${preview}. ${hintAdvice.unlock}`,
		});
	}
	return hints;
}

function warningsOf(job: IDataObject): string[] {
	const { warnings } = job;
	return Array.isArray(warnings)
		? warnings.filter((warning): warning is string => typeof warning === 'string' && warning !== '')
		: [];
}

function isJob(json: IDataObject): boolean {
	return typeof json.id === 'string' && typeof json.status === 'string' && json.error === undefined;
}

function hasDownloadedPreview(job: IDataObject): boolean {
	return (
		Array.isArray(job.files) && job.files.some((file) => (file as IDataObject)?.kind === 'preview')
	);
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
