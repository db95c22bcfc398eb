import { workflows } from './schemas';
import type { Workflow } from './schemas';

// A job as the service names it: its id (a ULID), always with its workflow. Everything the node reads from an
// id or matches it with is here: the pattern, the time a ULID carries, the key for maps and sets.

/** A job's id and workflow always travel together: the workflow selects the job's routes. */
export interface JobRef {
	id: string;
	workflow: Workflow;
}

/**
 * One text per job, for maps and sets: the same id in the other workflow is another job, and a ULID
 * reads the same in either case.
 */
export function jobKey(ref: JobRef): string {
	return `${ref.workflow}/${ref.id.toUpperCase()}`;
}

/** Crockford's base 32, the digits of a ULID: no I, L, O or U. */
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A job id as the service writes it: a ULID (Crockford base 32, no I, L, O or U), in either case. */
export const jobIdPattern = '[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}';

/** The service's link to a job: its v1 route, `{base URL}/jobs/{workflow}/{id}`. */
export const jobLinkPattern = `^https?://[^\\s?#]+/jobs/(${workflows.join('|')})/(${jobIdPattern})/?(?:[?#]\\S*)?$`;

/** The same link with the ID as the first group, for n8n's extractValue. */
export const jobIdInLinkPattern = `https?://[^\\s?#]+/jobs/(?:${workflows.join('|')})/(${jobIdPattern})`;

const jobLinkRegex = new RegExp(jobLinkPattern);

/** The job a link names, or undefined when the text is not a job link. */
export function parseJobLink(text: string): JobRef | undefined {
	const match = jobLinkRegex.exec(text.trim());
	return match ? { workflow: match[1] as Workflow, id: match[2].toUpperCase() } : undefined;
}

/** The creation time a ULID carries in its first ten characters; undefined for an id that is not a ULID. */
export function ulidTime(id: string): number | undefined {
	if (id.length !== 26) return undefined;
	let time = 0;
	for (const character of id.slice(0, 10).toUpperCase()) {
		const digit = crockford.indexOf(character);
		if (digit < 0) return undefined;
		time = time * 32 + digit;
	}
	return time;
}

/** The smallest ULID of a millisecond. */
export function smallestUlidAt(time: number): string {
	let encoded = '';
	for (
		let rest = Math.max(0, Math.floor(time)), index = 0;
		index < 10;
		index++, rest = Math.floor(rest / 32)
	) {
		encoded = crockford[rest % 32] + encoded;
	}
	return encoded + '0'.repeat(16);
}
