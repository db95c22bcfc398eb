// Names the failed tests of jest results files (`--json --outputFile`), for the end of scripts/test.sh's
// output: a CI log shown only in part keeps its last lines, so each failure is named there in a few lines of
// its own, its file, its full name and the start of its message.
//   node scripts/failed-tests.mjs <label>=<results.json>...
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Lines of a failure's message kept, and characters of each. */
const messageLines = 5;
const lineWidth = 160;

/** A diff's counts ("- Expected  - 1", "+ Received  + 4"): left out, for the lines its content needs. */
const diffCount = /^[-+] (Expected|Received)\s+[-+]\s+\d+$/;

// Jest's messages carry terminal colours.
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

function firstLines(message) {
	return plain(message ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('at ') && line !== 'Error:' && !diffCount.test(line))
		.slice(0, messageLines)
		.map((line) => (line.length > lineWidth ? `${line.slice(0, lineWidth - 1)}…` : line));
}

const failures = [];
for (const argument of process.argv.slice(2)) {
	const split = argument.indexOf('=');
	const [label, file] = [argument.slice(0, split), argument.slice(split + 1)];
	if (!existsSync(file)) continue;
	let results;
	try {
		results = JSON.parse(readFileSync(file, 'utf8'));
	} catch {
		failures.push({ label, name: `${file} could not be read`, lines: [] });
		continue;
	}
	for (const suite of results.testResults ?? []) {
		const path = relative(process.cwd(), suite.name ?? '');
		const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
		for (const test of failed)
			failures.push({
				label,
				name: `${path}: ${test.fullName ?? test.title}`,
				lines: firstLines(test.failureMessages?.join('\n')),
			});
		// A suite that failed outside its tests (it did not load, a hook threw, it was stopped).
		if (!failed.length && suite.status === 'failed')
			failures.push({ label, name: path, lines: firstLines(suite.message) });
	}
}
if (failures.length) {
	console.log('\nFailed tests:');
	for (const { label, name, lines } of failures) {
		console.log(`  ${label}: ${name}`);
		for (const line of lines) console.log(`      ${line}`);
	}
}
