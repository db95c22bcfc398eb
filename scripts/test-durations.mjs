// Writes test/durations.json (each jest file's seconds, longest first) from the results of a whole jest run
// (`npx jest --json --outputFile=results.json`, in this clone or another): the order
// test/support/sequencer.js starts files in on a clone that has no timings of its own.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [resultsFile] = process.argv.slice(2);
if (!resultsFile) {
	console.error('Usage: node scripts/test-durations.mjs <jest results JSON>');
	process.exit(2);
}
const root = resolve(import.meta.dirname, '..');

/** The file's path in this repository (`test/...`), wherever the run's clone was. */
function inRepository(absolute) {
	for (let at = absolute.indexOf('/test/'); at !== -1; at = absolute.indexOf('/test/', at + 1)) {
		const candidate = absolute.slice(at + 1);
		if (existsSync(resolve(root, candidate))) return candidate;
	}
	return undefined;
}

const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
const seconds = results.testResults
	.map((file) => [inRepository(file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
	.filter(([file]) => file !== undefined)
	.sort((a, b) => b[1] - a[1]);
writeFileSync(
	resolve(root, 'test/durations.json'),
	`${JSON.stringify(Object.fromEntries(seconds), null, '\t')}\n`,
);
console.log(`test/durations.json: ${seconds.length} files`);
