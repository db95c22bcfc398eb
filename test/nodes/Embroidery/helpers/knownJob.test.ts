/**
 * A job as the node knows it (helpers/knownJob.ts): its detail, its listing entry, or both, and the item JSON
 * each gives.
 */
import {
	listItemToJson,
	shownSourceNameOf,
	jobStatusOf,
	knownJobToJson,
	areDownloadsUnlocked,
} from '../../../../nodes/Embroidery/helpers/knownJob';
import type { KnownJob } from '../../../../nodes/Embroidery/helpers/knownJob';
import type { Job, JobListItem } from '../../../../nodes/Embroidery/transport';
import { detailedJob, jobIds, listItem } from '../../support/fakeJobs';

const detail = (extra: Record<string, unknown>) =>
	detailedJob(jobIds.a, 'completed', extra).job as unknown as Job;
const listed = (extra: Record<string, unknown>) =>
	({ ...listItem(jobIds.a, 'completed', 'digitising'), ...extra }) as unknown as JobListItem;

describe('KnownJob', () => {
	it('a listing entry alone: its status, source name and unlock state, its workflow from `kind`', () => {
		const job: KnownJob = {
			listed: listed({ downloadsUnlocked: true, source: { name: 'star.png' } }),
		};
		expect(jobStatusOf(job)).toBe('completed');
		expect(shownSourceNameOf(job)).toBe('star.png');
		expect(areDownloadsUnlocked(job)).toBe(true);
		expect(knownJobToJson(job, 'digitising', { sourceFile: 'star.png' })).toEqual({
			...listItemToJson(job.listed),
			workflow: 'digitising',
			sourceFile: 'star.png',
		});
	});

	it('detail and listing entry both known: the detail speaks for the job, the entry only for its links', () => {
		const job: KnownJob = {
			detail: detail({
				status: 'failed',
				downloadsUnlocked: false,
				source: { name: 'from-detail.png' },
			}),
			listed: listed({ downloadsUnlocked: true, source: { name: 'from-listing.png' } }),
		};
		expect(jobStatusOf(job)).toBe('failed');
		expect(shownSourceNameOf(job)).toBe('from-detail.png');
		expect(areDownloadsUnlocked(job)).toBe(false);
		const json = knownJobToJson(job, 'digitising');
		expect(json).toMatchObject({ id: jobIds.a, workflow: 'digitising', status: 'failed' });
		expect(json).not.toHaveProperty('kind');
	});
});
