import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { jobAdvice } from '../transport';
import type { JobRef } from '../transport';

/**
 * The creation answer lists one job per file sent, without the files (spec: JobAccepted), so the jobs of a request
 * of several files are paired with them by array order. A later answer (the jobs listing, a job's detail) may show
 * each job's `source.name`: that is checked here against the name sent.
 */

export interface PairingCheck {
	/** The file name sent for the job, and the request it was sent in; jobs of other requests are never swapped. */
	sentName?: string;
	batch?: number | string;
	/** How many files that request carried, where the jobs checked together may be fewer (a later node's items). */
	requestFiles?: number;
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

/** A shown name this long that begins the sent one is taken as the service's cut of it (the sandbox keeps 200). */
const shortestCutName = 64;

/** Whether `shown` is `sent` cut short: its start kept, and its extension too where the service keeps that. */
function isCutOf(shown: string, sent: string): boolean {
	if (shown.length < shortestCutName || shown.length >= sent.length) return false;
	if (sent.startsWith(shown)) return true;
	const extension = sent.slice(sent.lastIndexOf('.'));
	return (
		extension.length > 1 &&
		extension.length < sent.length &&
		shown.endsWith(extension) &&
		sent.startsWith(shown.slice(0, -extension.length))
	);
}

/** C0 and C1 control characters, DEL included. */
function isControl(character: string): boolean {
	const code = character.charCodeAt(0);
	return code < 0x20 || (code >= 0x7f && code < 0xa0);
}

/** What a service keeps of a name: its last path segment, without control characters, trimmed. */
function asStored(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? '';
	return [...base]
		.filter((character) => !isControl(character))
		.join('')
		.trim();
}

/** Percent escapes decoded where they form text; a stray `%` stays. */
function percentDecoded(name: string): string {
	return name.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
}

/** The file name as a multipart body carries it: quote, CR and LF percent-escaped (what FormData sends). */
function asSentInForm(name: string): string {
	return name.replace(/["\r\n]/g, (character) =>
		character === '"' ? '%22' : character === '\r' ? '%0D' : '%0A',
	);
}

function storedForms(name: string): string[] {
	return [...new Set([name, percentDecoded(name), asSentInForm(name)].map(asStored))];
}

/**
 * Whether the service may have stored the sent name as the shown one: escaped or decoded, trimmed, without control
 * characters or path, or cut short.
 */
export function sameStoredName(sent: string, shown: string): boolean {
	const sentForms = storedForms(sent);
	if (sentForms.every((form) => form === '')) return true;
	return storedForms(shown).some((form) =>
		sentForms.some((sentForm) => form === sentForm || isCutOf(form, sentForm)),
	);
}

/**
 * For each job, the item it belongs to. Names are checked only where a swap is possible: jobs of a request of several
 * files. A job that shows another name than the one sent is paired by name when each job of the request shows the
 * name of exactly one file, every file claimed once; otherwise it is a mismatch, never paired. A job of a one-file
 * request keeps its item whatever name it shows: its file is certain.
 */
export function pairBySourceName(jobs: PairingCheck[]): Pairing[] {
	const pairing: Pairing[] = jobs.map((_, index) => ({ use: index }));
	const batches = new Map<number | string, number[]>();
	jobs.forEach((job, index) => {
		if (job.batch !== undefined && job.sentName !== undefined)
			batches.set(job.batch, [...(batches.get(job.batch) ?? []), index]);
	});
	for (const members of batches.values()) {
		const files = Math.max(
			members.length,
			...members.map((index) => jobs[index].requestFiles ?? 0),
		);
		if (files < 2) continue;
		const shows = (index: number, name: string | undefined) =>
			name !== undefined && sameStoredName(jobs[index].sentName!, name);
		const mismatched = members.filter(
			(index) => jobs[index].shownName !== undefined && !shows(index, jobs[index].shownName),
		);
		if (mismatched.length === 0) continue;
		// The one member whose sent name the job's shown name can be, for every job of the request.
		const owners = members.map((job) => {
			const candidates = members.filter((owner) => shows(owner, jobs[job].shownName));
			return candidates.length === 1 ? candidates[0] : undefined;
		});
		const onePerName =
			owners.every((owner) => owner !== undefined) && new Set(owners).size === members.length;
		if (onePerName) {
			members.forEach((index, position) => (pairing[index] = { use: owners[position]! }));
			continue;
		}
		for (const index of mismatched)
			pairing[index] = { mismatch: { sent: jobs[index].sentName!, shown: jobs[index].shownName! } };
		// A job that shows no name cannot keep an item whose file name another job of the request shows.
		for (const index of members) {
			const claimed = mismatched.some((other) => shows(index, jobs[other].shownName));
			if (jobs[index].shownName === undefined && claimed)
				pairing[index] = { mismatch: { sent: jobs[index].sentName! } };
		}
	}
	return pairing;
}

/**
 * What an item of Create (several files in one request, Wait for Completion off) says of its job's file, so a
 * later Wait for Completion or Download node checks the pairing too: only when the item names that very job.
 */
export function sentSourceOfItem(
	json: IDataObject,
	ref: JobRef,
): Pick<PairingCheck, 'sentName' | 'batch' | 'requestFiles'> {
	const jobs = json.sameRequestJobs;
	const sameJob =
		json.id === ref.id && (json.workflow === undefined || json.workflow === ref.workflow);
	if (!sameJob || typeof json.sourceFile !== 'string' || !Array.isArray(jobs) || jobs.length < 2)
		return {};
	return {
		sentName: json.sourceFile,
		batch: jobs.map(String).join(','),
		requestFiles: jobs.length,
	};
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
			description: jobAdvice.mismatchedOrder(job),
		},
	);
	error.context.job = { id: job.id, workflow: job.workflow };
	return error;
}
