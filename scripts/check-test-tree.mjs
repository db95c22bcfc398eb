// The test tree mirrors the code (docs/development.md, Tests, "Where a test lives"): the tests of <dir>/<x>.ts
// are test/<dir>/<x>.test.ts or test/<dir>/<x>.<topic>.test.ts. Fails, naming each file and what to do, when a
// test file in the mirror names no code file, when two test files share a name, or when a test file or a
// test helper is over 500 lines.
//   node scripts/check-test-tree.mjs       lists every finding and exits 1 when there is one
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const lineLimit = 500;
/** Suites that test the whole product, not one file: they keep their own folders and names. */
const productSuites = ['test/e2e/', 'test/queue/', 'test/package/', 'test/load/'];
/** Not tests: shared helpers, data, and jest's own files. */
const notMirrored = ['test/support/', 'test/fixtures/', 'test/durations.json'];
/** What a code file the rule can name ends with. */
const codeExtensions = ['.ts', '.js', '.mjs', '.sh'];

const files = execFileSync(
	'git',
	['ls-files', '--cached', '--others', '--exclude-standard', 'test'],
	{
		encoding: 'utf8',
	},
)
	.split('\n')
	.filter((file) => file !== '' && existsSync(file));

const isTestFile = (file) => /\.(test|e2e)\.ts$/.test(file);
const isCode = (file) => /\.(ts|js|mjs)$/.test(file);
const inside = (file, folders) => folders.some((folder) => file.startsWith(folder));
const inSupport = (file) => file.split('/').includes('support');

const problems = [];

for (const file of files) {
	if (inside(file, [...productSuites, ...notMirrored]) || !isCode(file)) continue;
	if (!isTestFile(file)) {
		if (!inSupport(file))
			problems.push(
				`${file}: a helper among the tests; move it into the support/ folder at its area's top ` +
					'(test/support/ when several areas use it)',
			);
		continue;
	}
	// test/<dir>/<x>.test.ts or test/<dir>/<x>.<topic>.test.ts, where <x> may hold dots itself.
	const codeDir = dirname(file).slice('test/'.length);
	const stem = basename(file).replace(/\.test\.ts$/, '');
	const names = [stem, stem.includes('.') ? stem.slice(0, stem.lastIndexOf('.')) : undefined];
	const named = names
		.filter((name) => name !== undefined)
		.flatMap((name) => codeExtensions.map((extension) => `${codeDir}/${name}${extension}`))
		.some((code) => existsSync(code));
	if (!named)
		problems.push(
			`${file}: names no code file; the tests of <dir>/<x>.ts belong in test/<dir>/<x>.test.ts or ` +
				`test/<dir>/<x>.<topic>.test.ts (no ${codeDir}/${stem}.ts${
					names[1] ? ` or ${codeDir}/${names[1]}.ts` : ''
				}). Move it beside the test of the file whose promise it checks, or into a whole-product ` +
				`suite (${productSuites.join(', ')})`,
		);
}

const byName = new Map();
for (const file of files.filter(isTestFile)) {
	const name = basename(file);
	byName.set(name, [...(byName.get(name) ?? []), file]);
}
for (const [name, same] of byName)
	if (same.length > 1)
		problems.push(
			`${same.join(', ')}: ${same.length} test files named ${name}; rename all but one by the rule ` +
				'(<x>.<topic>.test.ts, or the name of the file whose promise each checks)',
		);

for (const file of files.filter((file) => isCode(file) && !file.startsWith('test/fixtures/'))) {
	const text = readFileSync(file, 'utf8');
	const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
	if (lines <= lineLimit) continue;
	problems.push(
		isTestFile(file)
			? `${file}: ${lines} lines, over ${lineLimit}; split it by topic into <x>.<topic>.test.ts files, ` +
					'moving whole tests'
			: `${file}: ${lines} lines, over ${lineLimit}; split the helper into files named for what each holds`,
	);
}

if (problems.length > 0) {
	console.error(problems.join('\n'));
	console.error(
		`${problems.length} in the test tree: see docs/development.md, Tests, "Where a test lives".`,
	);
	process.exit(1);
}
console.log(
	`The test tree mirrors the code: ${files.filter(isTestFile).length} test files checked.`,
);
