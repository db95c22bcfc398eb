/**
 * Figures of n8n in queue mode (one main, two workers, Postgres, Redis, binary data in the
 * database) with this package: a burst of 20 shop orders, the trigger across a restart of main, and
 * the worker's peak memory while 50 MB pass through the Embroidery node next to n8n's HTTP Request
 * node, side by side in one run. Run: bash test/queue/run.sh --bench (installs and starts everything).
 */
import { fixed, printTable } from './support/table';
import { openQueueEnvironment } from '../test/queue/support/environment';
import {
	runBigFileTransfers,
	runOrderBurst,
	runTriggerAcrossRestart,
	type BigFileRun,
} from '../test/queue/support/scenarios';

function counted(values: string[]): Array<[string, number]> {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts].sort();
}

/** "worker-1 10, worker-2 10" */
function tally(values: string[]): string {
	return counted(values)
		.map(([name, count]) => `${name} ${count}`)
		.join(', ');
}

/** Distinct lines with how often each occurs, e.g. "3 x Unlock: rate limit". */
function countLines(lines: string[]): string[] {
	return counted(lines).map(([line, count]) => `${count} x ${line}`);
}

async function main(): Promise<void> {
	const started = performance.now();
	const env = await openQueueEnvironment((stage) => console.log(`starting: ${stage}`));
	const setupSeconds = (performance.now() - started) / 1000;
	try {
		const burst = await runOrderBurst(env, 20);
		const orderIds = burst.executions.map(({ orderId }) => orderId ?? '?');
		const duplicates = orderIds.length - new Set(orderIds).size;
		printTable(
			'Burst of 20 shop orders posted at once to the shop-order example (webhook on main, executions on workers)',
			[
				'Orders',
				'Answered 200',
				'Workflows run',
				'Ran by',
				'Delivered files',
				'Service jobs',
				'Duplicates',
				'Seconds',
			],
			[
				[
					burst.orders.length,
					burst.responses.filter(({ httpStatus }) => httpStatus === 200).length,
					burst.executions.length,
					tally(burst.executions.map(({ ranBy }) => ranBy.join('+') || 'unknown')),
					burst.delivered.length,
					burst.jobs.length,
					duplicates + Math.max(0, burst.jobs.length - burst.orders.length),
					fixed(burst.seconds, 0),
				],
			],
			[
				'Workers run 5 jobs at once each (n8n worker --concurrency=5); "Ran by" is read from ' +
					'each worker\'s "Worker started execution <id>" log lines.',
				...countLines(burst.executions.flatMap(({ error }) => (error ? [error] : []))).map(
					(line) => `Failed: ${line}`,
				),
			],
		);

		const trigger = await runTriggerAcrossRestart(env);
		const endings = [...trigger.jobs.before, ...trigger.jobs.whileDown, ...trigger.jobs.after];
		const times = endings.map((id) => trigger.emitted.get(id) ?? 0);
		printTable(
			'Embroidery Trigger on main (poll every minute), the act-on-finished-jobs example on workers, main restarted',
			[
				'Endings',
				'Before',
				'While main down',
				'After',
				'Emitted once',
				'Missed',
				'Emitted twice+',
				'Workflows run',
				'Ran by',
				'Restart s',
			],
			[
				[
					endings.length,
					trigger.jobs.before.length,
					trigger.jobs.whileDown.length,
					trigger.jobs.after.length,
					times.filter((n) => n === 1).length,
					times.filter((n) => n === 0).length,
					times.filter((n) => n > 1).length,
					trigger.executions.length,
					tally(trigger.executions.map(({ ranBy }) => ranBy.join('+') || 'unknown')),
					fixed(trigger.restartSeconds, 0),
				],
			],
		);

		const files = await runBigFileTransfers(env, { freshWorkers: true });
		const row = (run: BigFileRun) => [
			run.what,
			run.worker ?? '?',
			run.stored?.id?.split(':')[0] ?? '?',
			run.inDatabase?.sha256 === files.sha256 ? 'yes' : 'NO',
			fixed(run.rssBeforeMb ?? NaN, 0),
			fixed(run.peakRssMb ?? NaN, 0),
			fixed((run.peakRssMb ?? NaN) - (run.rssBeforeMb ?? NaN), 0),
			fixed(run.seconds, 1),
		];
		printTable(
			'50 MiB through a worker, binary data mode "database" (n8n\'s default in queue mode); ' +
				'one run, one after the other',
			[
				'Workflow',
				'Worker',
				'Store',
				'Bytes intact',
				'RSS before MiB',
				'Peak RSS MiB',
				'Peak added MiB',
				'Seconds',
			],
			[row(files.download), row(files.httpRequest), row(files.upload)],
			[
				"Peak RSS is the worker process's VmHWM (/proc/<pid>/status), reset through " +
					'/proc/<pid>/clear_refs before each run.',
				'"Bytes intact": the sha256 of the row n8n stored in Postgres equals the file\'s.',
			],
		);
	} finally {
		await env.close();
		console.log(
			`\nQueue environment: ${fixed(setupSeconds, 0)} s to ` +
				`start, ${fixed((performance.now() - started) / 1000, 0)} s in all.`,
		);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
