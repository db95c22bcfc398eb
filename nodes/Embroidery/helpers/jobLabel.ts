import type { JobListItem } from '../transport';

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** When a job was created: a ULID's first ten characters are its creation time in milliseconds. */
export function jobCreatedAt(id: string): number | undefined {
	let time = 0;
	for (const char of id.slice(0, 10).toUpperCase()) {
		const digit = crockford.indexOf(char);
		if (digit < 0) return undefined;
		time = time * 32 + digit;
	}
	return time;
}

/** "just now", "12 min ago", "3 h ago", "5 days ago". */
export function ageOf(createdAt: number | undefined, now: number): string {
	if (createdAt === undefined) return 'age unknown';
	const minutes = Math.floor((now - createdAt) / 60_000);
	if (minutes < 1) return 'just now';
	if (minutes < 60) return `${minutes} min ago`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h ago`;
	return `${Math.floor(hours / 24)} days ago`;
}

function sourceNameOf(job: JobListItem): string {
	return job.source?.name || job.title || 'unnamed source';
}

/** One line a person can pick a job by: source file, output format, workflow, status, age. */
export function jobLabel(job: JobListItem, now: number): string {
	const format = job.formats.length > 0 ? ` → ${job.formats.join(', ').toUpperCase()}` : '';
	return `${sourceNameOf(job)}${format} · ${job.kind} · ${job.status} · ${ageOf(jobCreatedAt(job.id), now)}`;
}
