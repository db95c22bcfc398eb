// Writes test/durations.json (each test file's seconds, longest first) from the results of whole jest runs
// (`npx jest --json --outputFile=results.json`, in this clone or another): the order test/support/sequencer.js
// starts the unit and integration files in on a clone that has no timings of its own, and the seconds
// test/e2e/run.sh splits the end-to-end files into lanes by. Give the unit tier's results and the e2e
// environments' (npm test leaves them as jest.json, n8n2.json, n8n1.json); a file in several takes its longest
// time, and a file none of them ran keeps the seconds it had, while it exists.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const resultsFiles = process.argv.slice(2);
if (resultsFiles.length === 0) {
	console.error('Usage: node scripts/test-durations.mjs <jest results JSON>...');
	process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const durationsFile = resolve(root, 'test/durations.json');

/** The file's path in this repository (`test/...`), wherever the run's clone was. */
function inRepository(absolute) {
	for (let at = absolute.indexOf('/test/'); at !== -1; at = absolute.indexOf('/test/', at + 1)) {
		const candidate = absolute.slice(at + 1);
		if (existsSync(resolve(root, candidate))) return candidate;
	}
	return undefined;
}

const measured = new Map();
for (const resultsFile of resultsFiles) {
	const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
	for (const file of results.testResults) {
		const path = inRepository(file.name);
		if (path === undefined) continue;
		const seconds = Math.round((file.endTime - file.startTime) / 100) / 10;
		measured.set(path, Math.max(seconds, measured.get(path) ?? 0));
	}
}
const earlier = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
let kept = 0;
for (const [path, seconds] of Object.entries(earlier)) {
	if (!measured.has(path) && existsSync(resolve(root, path))) {
		measured.set(path, seconds);
		kept += 1;
	}
}
const seconds = [...measured].sort((a, b) => b[1] - a[1]);
writeFileSync(durationsFile, `${JSON.stringify(Object.fromEntries(seconds), null, '\t')}\n`);
console.log(
	`test/durations.json: ${seconds.length} files (${kept} of them not in these results, as they were)`,
);
