import { monotonicFactory } from 'ulid';

import type { JobSource } from '../../../nodes/Embroidery/trigger/pollJobs';
import type { JobStatus, Workflow } from '../../../nodes/Embroidery/transport/schemas';
import type { TrackedJob } from '../../../nodes/Embroidery/trigger/pollState';
import { LISTING_SIZE } from '../../../nodes/Embroidery/trigger/pollState';

/** The account's jobs as the service keeps them, for driving polls without HTTP. Ids are ULIDs in creation order. */
export class JobsInMemory {
	private readonly jobs: TrackedJob[] = [];

	private readonly nextId = monotonicFactory();

	private clock = Date.UTC(2026, 0, 1);

	readonly requests = { list: 0, get: 0 };

	create(workflow: Workflow = 'conversion', status: JobStatus = 'queued'): string {
		this.clock += 1000;
		const id = this.nextId(this.clock);
		this.jobs.push({ id, workflow, status });
		return id;
	}

	createMany(count: number, workflow: Workflow = 'conversion', status: JobStatus = 'queued'): string[] {
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
			.slice(-LISTING_SIZE)
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
				const found = this.jobs.find((candidate) => candidate.id === job.id);
				return found ? { ...found } : undefined;
			},
		};
	}
}
