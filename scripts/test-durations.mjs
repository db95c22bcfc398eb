// Writes test/durations.json (each jest file's seconds, longest first) from the results of a whole jest run
// (`npx jest --json --outputFile=results.json`): the order test/support/sequencer.js starts files in on a
// clone that has no timings of its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const [resultsFile] = process.argv.slice(2);
if (!resultsFile) {
	console.error('Usage: node scripts/test-durations.mjs <jest results JSON>');
	process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
const seconds = results.testResults
	.map((file) => [
		relative(root, file.name),
		Math.round((file.endTime - file.startTime) / 100) / 10,
	])
	.sort((a, b) => b[1] - a[1]);
writeFileSync(
	resolve(root, 'test/durations.json'),
	`${JSON.stringify(Object.fromEntries(seconds), null, '\t')}\n`,
);
console.log(`test/durations.json: ${seconds.length} files`);
