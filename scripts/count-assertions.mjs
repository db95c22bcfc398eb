// Counts the assertions written in the tests (calls of expect(...), expect.assertions excluded, and of
// node:assert) and the tests (it/test calls), in total and per file, so a move or split of test files can be
// shown to drop none:  node scripts/count-assertions.mjs [--files]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const skip = new Set(['node_modules', 'fixtures', 'snapshots']);

function* testFiles(dir) {
	for (const name of readdirSync(dir)) {
		if (skip.has(name)) continue;
		const path = join(dir, name);
		if (statSync(path).isDirectory()) yield* testFiles(path);
		else if (name.endsWith('.ts')) yield path;
	}
}

const expectCall = /\bexpect\s*(?:<[^>]*>)?\s*\(/g;
const assertCall = /\bassert(?:\.\w+)?\s*\(/g;
const testCall = /\b(?:it|test)(?:\.each\([^)]*\))?\s*\(\s*[`'"]/g;

let assertions = 0;
let tests = 0;
const rows = [];
for (const file of testFiles(join(root, 'test'))) {
	const text = readFileSync(file, 'utf8');
	const a = (text.match(expectCall) ?? []).length + (text.match(assertCall) ?? []).length;
	const t = (text.match(testCall) ?? []).length;
	assertions += a;
	tests += t;
	if (a + t > 0) rows.push(`${relative(root, file)}\t${t} tests\t${a} assertions`);
}
if (process.argv.includes('--files')) console.log(rows.sort().join('\n'));
console.log(`${tests} tests and ${assertions} assertions written in test/ (${rows.length} files)`);
