/**
 * npm run bench: the load benchmarks of the Embroidery nodes, one table each (requests per job, the trigger's
 * requests per poll, memory while moving 50 MB). `npm run bench -- memory` runs only the named ones.
 */
import { nodeMemoryBenchmark } from './node-memory';
import { nodeRequestsBenchmark } from './node-requests';
import { triggerRequestsBenchmark } from './trigger-requests';

const benchmarks: Record<string, () => Promise<void>> = {
	requests: nodeRequestsBenchmark,
	trigger: triggerRequestsBenchmark,
	memory: nodeMemoryBenchmark,
};

async function main(): Promise<void> {
	const chosen = process.argv.slice(2);
	const unknown = chosen.filter((name) => !(name in benchmarks));
	if (unknown.length > 0)
		throw new Error(
			`Unknown benchmark(s) ${unknown.join(', ')}; choose from ${Object.keys(benchmarks).join(', ')}`,
		);
	for (const name of chosen.length > 0 ? chosen : Object.keys(benchmarks)) await benchmarks[name]();
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
