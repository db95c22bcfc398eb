import { pollJobs } from '../../../../../nodes/Embroidery/trigger/pollJobs';
import type {
	PollState,
	TrackedJob,
	TriggerFilter,
} from '../../../../../nodes/Embroidery/trigger/pollState';
import { readPollState } from '../../../../../nodes/Embroidery/trigger/pollState';
import type { JobsInMemory } from './jobsInMemory';

/**
 * Keeps the poll state the way n8n keeps static data: in memory between polls, written to the database only by the
 * first poll of an activation (n8n saves after activating) and by polls that emit. A restart drops
 * what was not written.
 */
export class SavedStatePoller {
	private saved: string | undefined;

	private memory: PollState | undefined;

	private activating = true;

	readonly emitted: string[] = [];

	abandoned: TrackedJob[] = [];

	/** Followed jobs each poll warned about: their per-job request failed several polls in a row. */
	readonly unreachable: Array<{ id: string; failedChecks: number }> = [];

	constructor(
		private readonly jobs: JobsInMemory,
		public filter: TriggerFilter = {
			events: ['completed', 'failed'],
			workflows: ['conversion', 'digitising'],
		},
	) {}

	async poll(): Promise<string[]> {
		const result = await pollJobs(this.memory, this.jobs.source(), this.filter, {
			now: this.jobs.now(),
		});
		this.memory = result.state;
		this.abandoned.push(...result.abandoned);
		this.unreachable.push(
			...(result.unreachable ?? []).map((job) => ({
				id: job.id,
				failedChecks: job.failedChecks ?? 0,
			})),
		);
		const endings = result.endings.map(({ job }) => `${job.id}:${job.status}`);
		if (endings.length > 0 || this.activating) this.saved = JSON.stringify(this.memory);
		this.activating = false;
		this.emitted.push(...endings);
		return endings;
	}

	restart(): void {
		this.memory = this.saved === undefined ? undefined : readPollState(JSON.parse(this.saved));
		this.activating = true;
	}

	savedSize(): number {
		return this.saved?.length ?? 0;
	}

	get state(): PollState | undefined {
		return this.memory;
	}
}
