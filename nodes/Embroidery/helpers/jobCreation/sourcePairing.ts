import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { JobRef } from '../../transport';

/**
 * The creation answer lists one job per file sent, without the files (spec: JobAccepted), so the jobs of a request
 * of several files are paired with them by array order. A later answer (the jobs listing, a job's detail) may show
 * each job's `source.name`: that is checked here against the name sent.
 */

export interface PairingCheck {
	/** The file name sent for the job, and the request it was sent in; jobs of other requests are never swapped. */
	sentName?: string;
	batch?: number;
	/** The `source.name` a later answer showed for the job, if any. */
	shownName?: string;
}

/** Where job `index` goes: the item of job `use` (itself, or the job whose file it was made from), or nowhere. */
export type Pairing = { use: number } | { mismatch: Mismatch };

/** The name sent for the job's item, and the one its job shows (none: another job of the request shows the item's). */
export interface Mismatch {
	sent: string;
	shown?: string;
}

/**
 * For each job, the item it belongs to. A job that shows another name than the one sent is paired by name when
 * the request's names are unique and every job of it shows one of them; otherwise it is a mismatch, never paired.
 */
export function pairBySourceName(jobs: PairingCheck[]): Pairing[] {
	const pairing: Pairing[] = jobs.map((_, index) => ({ use: index }));
	const batches = new Map<number, number[]>();
	jobs.forEach((job, index) => {
		if (job.batch !== undefined && job.sentName !== undefined)
			batches.set(job.batch, [...(batches.get(job.batch) ?? []), index]);
	});
	for (const members of batches.values()) {
		const mismatched = members.filter(
			(index) =>
				jobs[index].shownName !== undefined && jobs[index].shownName !== jobs[index].sentName,
		);
		if (mismatched.length === 0) continue;
		const sent = members.map((index) => jobs[index].sentName!);
		const shown = members.map((index) => jobs[index].shownName);
		const byName = new Map(members.map((index) => [jobs[index].sentName!, index]));
		const onePerName =
			new Set(sent).size === members.length &&
			shown.every((name) => name !== undefined && byName.has(name)) &&
			new Set(shown).size === members.length;
		if (onePerName) {
			for (const index of members) pairing[index] = { use: byName.get(jobs[index].shownName!)! };
			continue;
		}
		for (const index of mismatched)
			pairing[index] = { mismatch: { sent: jobs[index].sentName!, shown: jobs[index].shownName! } };
		// A job that shows no name cannot keep an item whose file name another job of the request shows.
		const claimed = new Set(mismatched.map((index) => jobs[index].shownName));
		for (const index of members) {
			if (jobs[index].shownName === undefined && claimed.has(jobs[index].sentName))
				pairing[index] = { mismatch: { sent: jobs[index].sentName! } };
		}
	}
	return pairing;
}

/** A job whose source name matches no file of its item: no file of it is attached to any item. */
export function sourceMismatchError(
	node: INode,
	job: JobRef,
	itemIndex: number,
	mismatch: Mismatch,
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		mismatch.shown === undefined
			? `Job ${job.id} shows no source file, and another job of the request shows ` +
				`"${mismatch.sent}", the file of item ${itemIndex}; no file of it was attached`
			: `Job ${job.id} was made from "${mismatch.shown}", but the file of item ${itemIndex} is ` +
				`"${mismatch.sent}"; no file of it was attached`,
		{
			itemIndex,
			description:
				`The service answered the request of several files with its jobs in an order that does ` +
				`not match the files, and the names cannot pair them (two files share a name, or a job ` +
				`shows a name that was not sent). The job exists: check it with Job > Get (id ${job.id}, ` +
				`workflow "${job.workflow}") and match it to its file by source name; do not create it again.`,
		},
	);
	error.context.job = { id: job.id, workflow: job.workflow };
	return error;
}
