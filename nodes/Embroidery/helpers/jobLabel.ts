import { ulidTime } from '../transport';
import type { JobListItem } from '../transport';

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
	return `${sourceNameOf(job)}${format} · ${job.kind} · ${job.status} · ${ageOf(ulidTime(job.id), now)}`;
}
