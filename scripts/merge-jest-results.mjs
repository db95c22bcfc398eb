// Merges the results of jest runs (`--json --outputFile`) into one file in the same shape, for
// scripts/test.sh's summary: test/e2e/run.sh runs an n8n line's files in two jest runs side by side.
//   node scripts/merge-jest-results.mjs <merged.json> <results.json>...
// A results file that is missing (its jest never wrote it: it crashed or was stopped) counts as one suite
// that could not run, so the summary shows the failure. No results file at all (a lane with no file to run)
// gives an empty result: no test, no failure.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [target, ...sources] = process.argv.slice(2);
if (!target) {
	console.error('Usage: node scripts/merge-jest-results.mjs <merged.json> [<results.json>...]');
	process.exit(2);
}
const counts = [
	'numFailedTestSuites',
	'numFailedTests',
	'numPassedTestSuites',
	'numPassedTests',
	'numPendingTestSuites',
	'numPendingTests',
	'numRuntimeErrorTestSuites',
	'numTodoTests',
	'numTotalTestSuites',
	'numTotalTests',
];
const merged = { success: true, startTime: Infinity, testResults: [] };
for (const name of counts) merged[name] = 0;
for (const source of sources) {
	if (!existsSync(source)) {
		merged.success = false;
		merged.numRuntimeErrorTestSuites += 1;
		merged.numTotalTestSuites += 1;
		continue;
	}
	const results = JSON.parse(readFileSync(source, 'utf8'));
	for (const name of counts) merged[name] += results[name] ?? 0;
	merged.success &&= results.success === true;
	merged.startTime = Math.min(merged.startTime, results.startTime ?? Infinity);
	merged.testResults.push(...(results.testResults ?? []));
}
if (merged.startTime === Infinity) merged.startTime = Date.now();
writeFileSync(target, JSON.stringify(merged));
