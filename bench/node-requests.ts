/**
 * Requests per job for a shop sending 1, 10 and 50 orders through one Embroidery node (Job > Create with
 * Wait for Completion and Download Results), executed by n8n-core against the sandbox. Every request is
 * counted by a loopback proxy in front of the sandbox. Run: npm run bench (or tsx bench/node-requests.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { countByRoute } from '../test/support/serviceRoutes';
import type { SeenRequest } from '../test/support/variantService';
import { storedJobs } from '../test/load/support/sandboxState';
import type { StoredJob } from '../test/load/support/sandboxState';
import {
	createWaitDownload,
	openShop,
	orderItems,
	runOrders,
	shopKey,
} from '../test/load/support/shopOrders';
import { fixed, printTable } from './support/table';

/** How often the naive client asks for each job on its own. */
const naivePollMs = 3000;

export interface RequestsFigures {
	jobs: number;
	requests: number;
	creates: number;
	listings: number;
	jobGets: number;
	unlocks: number;
	downloads: number;
	rateLimited: number;
	minimum: number;
	naive: number;
	seconds: number;
	failedItems: number;
}

/** The naive client: one create per order, each job polled alone every 3 s until it ends, one download. */
function naiveRequests(jobs: StoredJob[], downloadsPerJob: number, unlocks: boolean): number {
	let total = 0;
	for (const job of jobs) {
		const polls = Math.max(
			1,
			Math.ceil(((job.completedAt ?? job.createdAt) - job.createdAt) / naivePollMs),
		);
		total += 1 + polls + downloadsPerJob + (unlocks ? 1 : 0);
	}
	return total;
}

export function figuresOf(
	jobs: number,
	requests: SeenRequest[],
	items: IDataObject[],
	stored: StoredJob[],
	seconds: number,
	unlocks: boolean,
): RequestsFigures {
	const counts = countByRoute(requests);
	const sum = (test: (route: string) => boolean) =>
		Object.entries(counts)
			.filter(([route]) => test(route))
			.reduce((total, [, count]) => total + count, 0);
	const creates = counts['POST /jobs'] ?? 0;
	const listings = counts['GET /jobs'] ?? 0;
	const downloads = sum((route) => route.startsWith('GET /uploads/'));
	const unlockCount = sum((route) => route.endsWith('/unlock'));
	const failedItems = items.filter((json) => json.error !== undefined).length;
	const finished = stored.filter((job) => job.completedAt !== null);
	// The fewest requests that can do this work: one create per 10 sources, one listing per wait round,
	// one request per downloaded file, and per job either its unlock (which answers with the detailed job)
	// or, for Show Warnings (on by default), one detail GET: the spec's listing entries carry no warnings.
	const minimum = Math.ceil(jobs / 10) + listings + (unlocks ? jobs : finished.length) + downloads;
	return {
		jobs,
		requests: requests.length,
		creates,
		listings,
		jobGets: sum((route) => /^GET \/jobs\/(conversion|digitising)\/\{id\}$/.test(route)),
		unlocks: unlockCount,
		downloads,
		rateLimited: requests.filter((request) => request.status === 429).length,
		minimum,
		naive: naiveRequests(finished, finished.length ? downloads / finished.length : 1, unlocks),
		seconds,
		failedItems,
	};
}

export async function measureRequests(
	jobCounts: number[],
	download: Array<'outputs' | 'preview'>,
	unlock: boolean,
) {
	const shop = await openShop();
	const figures: RequestsFigures[] = [];
	try {
		for (const jobs of jobCounts) {
			const key = await shopKey(shop);
			const { run, requests, seconds } = await runOrders(
				shop,
				key,
				orderItems(jobs),
				createWaitDownload(download, unlock),
			);
			if (run.error) throw new Error(`The node failed with ${jobs} jobs: ${run.error.message}`);
			const stored = storedJobs(shop.sandbox, key.accountId);
			figures.push(
				figuresOf(
					jobs,
					requests,
					run.items.map((item) => item.json),
					stored,
					seconds,
					unlock,
				),
			);
		}
	} finally {
		await shop.close();
	}
	return figures;
}

export function printRequests(title: string, figures: RequestsFigures[], notes: string[]): void {
	printTable(
		title,
		[
			'jobs',
			'requests',
			'per job',
			'create',
			'list',
			'job GET',
			'unlock',
			'download',
			'429s',
			'minimum',
			'x min',
			'naive',
			'x naive',
			'seconds',
			'failed',
		],
		figures.map((row) => [
			row.jobs,
			row.requests,
			fixed(row.requests / row.jobs),
			row.creates,
			row.listings,
			row.jobGets,
			row.unlocks,
			row.downloads,
			row.rateLimited,
			row.minimum,
			fixed(row.requests / row.minimum),
			row.naive,
			fixed(row.requests / row.naive),
			fixed(row.seconds, 1),
			row.failedItems,
		]),
		notes,
	);
}

export async function nodeRequestsBenchmark(): Promise<void> {
	const previews = await measureRequests([1, 10, 50], ['preview'], false);
	printRequests(
		'Requests per job: Create (Combine Items) -> Wait -> Download Preview, real node via n8n-core, sandbox',
		previews,
		[
			"minimum = ceil(jobs/10) creates + the run's listings (one per wait round) + one detail " +
				'GET per completed job (Show Warnings, on by default: listings carry no warnings) + one ' +
				'request per download',
			`naive = one create per order + each job polled alone every ${naivePollMs / 1000} s ` +
				`until it ends (from the same run's job timestamps, as the sandbox stored them) + downloads`,
			'goal at 50 jobs: at most 1.3x the minimum and no 429',
		],
	);
	const outputs = await measureRequests([1, 10, 50], ['outputs'], true);
	printRequests(
		'Requests per job: Create -> Wait -> Unlock -> Download Output (internal account)',
		outputs,
		[
			'minimum adds the one unlock per job; the sandbox allows 10 unlocks a minute per key, ' +
				'so 50 unlocks take 4 minutes at best',
		],
	);
}

if (require.main === module) {
	nodeRequestsBenchmark().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
