// No line over 120 characters in the repository's code, outside data tables (listed below, each with why).
// Prettier wraps code at 100; strings and comments it leaves alone, so this check covers them.
//   node scripts/check-line-length.mjs       lists every longer line and exits 1 when there is one
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const limit = 120;
/** Files that are tables of data, whose rows read best one to a line. */
const dataTables = new Set([]);
/**
 * Lines that must stay whole, each with why. n8n's lint (node-param-description-missing-from-dynamic-options)
 * reads a dynamic-options parameter's `description` only from a single string literal, so it cannot be split.
 */
const wholeLines = [
	{
		file: 'nodes/Embroidery/actions/job/create.operation.ts',
		startsWith: "'Thread maker whose colours the design uses;",
		why: 'description of a dynamic-options parameter, which n8n lint reads only from one literal',
	},
];
const isWhole = (file, line) =>
	wholeLines.some((whole) => whole.file === file && line.trim().startsWith(whole.startsWith));

const files = execFileSync(
	'git',
	['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.js', '*.mjs'],
	{
		encoding: 'utf8',
	},
)
	.split('\n')
	.filter((file) => file !== '' && !file.startsWith('test/fixtures/') && !dataTables.has(file));

const long = [];
for (const file of files) {
	readFileSync(file, 'utf8')
		.split('\n')
		.forEach((line, index) => {
			const width = line.replace(/\t/g, '  ').length;
			if (width > limit && !isWhole(file, line))
				long.push(`${file}:${index + 1}: ${width} characters`);
		});
}
if (long.length > 0) {
	console.log(long.join('\n'));
	console.log(
		`${long.length} lines are longer than ${limit} characters: wrap them (strings with +, comments over lines).`,
	);
	process.exit(1);
}
console.log(`No line over ${limit} characters in ${files.length} files.`);
