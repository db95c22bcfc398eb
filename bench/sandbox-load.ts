/**
 * Loopback load on the sandbox: many keys submitting at once, then waiting politely.
 * Run: npx tsx bench/sandbox-load.ts [keys=10] [jobsPerKey=20] [workers=2]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { startSandbox } from '../sandbox';
import { sandboxAdmin } from '../test/support/sandbox';
import { burst, runLoad } from '../test/sandbox/support/loadRun';

async function main(): Promise<void> {
	const [keys = 10, jobsPerKey = 20, workers = 2] = process.argv.slice(2).map(Number);
	const sandbox = await startSandbox({ port: 0, workers });
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	try {
		const result = await runLoad(sandbox, {
			keys,
			jobsPerKey,
			pollEveryMs: 2000,
			timeoutMs: 600000,
		});
		loop.disable();
		const ms = (ns: number) => (ns / 1e6).toFixed(1);
		console.log(
			`sandbox load: ${keys} keys x ${jobsPerKey} jobs, ${workers} workers (conversion of ` +
				`Star.DST to rotating formats)`,
		);
		console.log(
			`  submitted ${result.submitted}, accepted ${result.accepted}, ` +
				`completed ${result.completed}, failed ${result.failed}`,
		);
		console.log(
			`  lost ${result.lost.length}, duplicate ids ${result.duplicateIds}, unexpected 429s ${result.unexpected429}`,
		);
		console.log(
			`  all submissions answered in ${result.submitSeconds.toFixed(2)} s ` +
				`(${(result.submitted / result.submitSeconds).toFixed(1)} job requests/s)`,
		);
		console.log(
			`  all jobs finished in ${result.totalSeconds.toFixed(2)} s ` +
				`(${(result.completed / result.totalSeconds).toFixed(2)} jobs/s)`,
		);
		console.log(
			`  job latency created->completed: p50 ${result.latencyMs.p50} ms, ` +
				`p95 ${result.latencyMs.p95} ms, max ${result.latencyMs.max} ms (sampled)`,
		);
		console.log(
			`  HTTP requests ${result.requests}; event-loop delay p99 ${ms(loop.percentile(99))} ms, max ${ms(loop.max)} ms`,
		);
		console.log(
			`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process, workers included)`,
		);
		const { key } = await sandboxAdmin(sandbox).createAccountWithKey({ plan: 'credits' });
		const statuses = await burst(sandbox, key, 100);
		console.log(
			`  burst of 100 simultaneous requests from one key: ${JSON.stringify(statuses)} (limit 60 per minute)`,
		);
		if (statuses[200] !== 60) process.exitCode = 1;
		if (
			result.lost.length ||
			result.duplicateIds ||
			result.unexpected429 ||
			result.accepted !== result.submitted
		)
			process.exitCode = 1;
	} finally {
		await sandbox.close();
	}
}

void main();
