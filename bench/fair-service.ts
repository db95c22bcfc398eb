/**
 * Fairness under a hostile account (issue 40): how much slower two accounts' Star.DST conversions finish while
 * a third sends the costliest SVG the service accepts, filter bombs and a 1 x 40,000,000 PNG it refuses,
 * 10 x 50 MB uploads and retries (test/load/support/fairScenario.ts), against the same accounts' idle phases
 * taken in turn on the same sandbox. Each run starts a sandbox of its own with two engine processes; the
 * figures pool every run's conversions, so one run's scheduling noise does not decide the ratio.
 * Exits 1 when an account's pooled median under the attack is over twice its idle median.
 * Run: npm run bench:fair [-- runs=5]; FAIR_VERBOSE=1 prints each run's conversions too.
 */
import { startSandbox } from '../sandbox';
import {
	describeRun,
	fairScenario,
	median,
	ratios,
	threadPng,
} from '../test/load/support/fairScenario';

async function main(): Promise<void> {
	const runs = Number(process.argv[2] ?? 5);
	const png = threadPng();
	const idle: number[][] = [[], []];
	const loaded: number[][] = [[], []];
	for (let n = 0; n < runs; n++) {
		const sandbox = await startSandbox({ port: 0, workers: 2 });
		try {
			const run = await fairScenario(sandbox, png, { attackWindows: 2, roundsPerPhase: 3 });
			if (process.env.FAIR_VERBOSE) console.log(describeRun(run));
			run.idle.forEach((times, account) => idle[account].push(...times));
			run.loaded.forEach((times, account) => loaded[account].push(...times));
			const held = run.attackHeld.every(Boolean) ? '' : ' (the costly SVG ended inside a window)';
			console.log(
				`run ${n + 1}: ${ratios(run)
					.map((ratio, account) => `account ${account + 1} ${ratio.toFixed(2)}x`)
					.join(', ')}, ${run.retries} retries, uploads ${run.hugeAnswers.join('/')}${held}`,
			);
		} finally {
			await sandbox.close();
		}
	}
	const pooled = ratios({ idle, loaded });
	console.log(`fair service: ${runs} runs, 2 shop accounts, conversions pooled per account`);
	console.log('account  idle n  idle median  attacked n  attacked median  ratio');
	for (const account of idle.keys()) {
		console.log(
			`${String(account + 1).padEnd(9)}${String(idle[account].length).padStart(6)}` +
				`${`${median(idle[account])} ms`.padStart(13)}${String(loaded[account].length).padStart(12)}` +
				`${`${median(loaded[account])} ms`.padStart(17)}${`${pooled[account].toFixed(2)}x`.padStart(7)}`,
		);
	}
	const within = pooled.every((ratio) => ratio <= 2);
	console.log(
		`${within ? 'MET' : 'NOT MET'}: the other accounts' conversions finish within 2x their idle time ` +
			`(worst ${Math.max(...pooled).toFixed(2)}x)`,
	);
	if (!within) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
