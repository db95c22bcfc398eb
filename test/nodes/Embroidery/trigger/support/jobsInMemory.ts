import { monotonicFactory, ulid } from 'ulid';

import type { JobSource } from '../../../../../nodes/Embroidery/trigger/pollJobs';
import type { JobStatus, Workflow } from '../../../../../nodes/Embroidery/transport/schemas';
import type { TrackedJob } from '../../../../../nodes/Embroidery/trigger/pollState';
import { jobsListingSize } from '../../../../../nodes/Embroidery/transport';

/** The account's jobs as the service keeps them, for driving polls without HTTP. Ids are ULIDs in creation order. */
export class JobsInMemory {
	private readonly jobs: TrackedJob[] = [];

	private readonly nextId = monotonicFactory();

	private clock = Date.UTC(2026, 0, 1);

	readonly requests = { list: 0, get: 0 };

	/** Jobs whose per-job request fails (the service answers 500 for them, or the network drops). */
	readonly unreachable = new Set<string>();

	/** Attempt counts, as the detailed job reports them: one per run, so a retry raises it. */
	private readonly attempts = new Map<string, number>();

	/** The service's clock; a job's id carries the time it was created. */
	now(): number {
		return this.clock;
	}

	advance(ms: number): void {
		this.clock += ms;
	}

	/** `idSkewMs`: the id is made on a machine whose clock is that much behind (clock skew between service machines). */
	create(workflow: Workflow = 'conversion', status: JobStatus = 'queued', idSkewMs = 0): string {
		this.clock += 1000;
		const id = idSkewMs === 0 ? this.nextId(this.clock) : ulid(this.clock - idSkewMs);
		this.jobs.push({ id, workflow, status });
		this.attempts.set(id, 1);
		return id;
	}

	/** Job > Retry: a failed job goes back to queued, and its next run counts as another attempt. */
	retry(id: string): void {
		const job = this.jobs.find((candidate) => candidate.id === id);
		if (job?.status !== 'failed') throw new Error(`job ${id} is not failed, it cannot be retried`);
		job.status = 'queued';
		this.attempts.set(id, (this.attempts.get(id) ?? 1) + 1);
	}

	createMany(
		count: number,
		workflow: Workflow = 'conversion',
		status: JobStatus = 'queued',
	): string[] {
		return Array.from({ length: count }, () => this.create(workflow, status));
	}

	set(id: string, status: JobStatus): void {
		const job = this.jobs.find((candidate) => candidate.id === id);
		if (!job) throw new Error(`no job ${id}`);
		job.status = status;
	}

	remove(id: string): void {
		this.jobs.splice(
			this.jobs.findIndex((job) => job.id === id),
			1,
		);
	}

	all(): TrackedJob[] {
		return this.jobs.map((job) => ({ ...job }));
	}

	listing(): TrackedJob[] {
		return this.jobs
			.slice(-jobsListingSize)
			.reverse()
			.map((job) => ({ ...job }));
	}

	source(): JobSource<TrackedJob, TrackedJob> {
		return {
			listJobs: async () => {
				this.requests.list++;
				return this.listing();
			},
			getJob: async (job) => {
				this.requests.get++;
				if (this.unreachable.has(job.id))
					throw new Error(`The service failed: Server Error (job ${job.id})`);
				const found = this.jobs.find((candidate) => candidate.id === job.id);
				return found ? { ...found, attempts: this.attempts.get(found.id) } : undefined;
			},
		};
	}
}
