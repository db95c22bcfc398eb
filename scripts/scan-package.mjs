// n8n's community package scanner (@n8n/scan-community-package) over a package before it is
// published, with each check's verdict read and turned into the exit code (the scanner's own CLI
// prints "has failed security checks" and still exits 0).
//
//   node scripts/scan-package.mjs --scanner <scanner.mjs> --rules <GuardDog rules folder> \
//     --tarball <unpacked npm pack output> --source <folder with package.json, nodes/, credentials/>
//       runs the checks n8n applies to a published version, except provenance:
//       - ESLint: the scanner's `analyzePackage` on the tarball (compiled .js and package.json) and
//         on the sources (package.json, nodes/, credentials/), as it lints a version and the source
//         its provenance names;
//       - YARA: the threat rules the scanner runs (GuardDog's `threat-*` rules, each limited to the
//         paths its `path_include`/`path_exclude` name, paths read as `package/<file>`), with the
//         `yara` command;
//       - what the scanner takes from the registry: no runtime dependencies or install scripts, and
//         every file the "n8n" section registers present.
//   node scripts/scan-package.mjs --verdict <file with the scanner CLI's output>
//       exits 1 unless the CLI said the package passed (for the published version, in publish.yml).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values } = parseArgs({
	options: {
		scanner: { type: 'string' },
		rules: { type: 'string' },
		tarball: { type: 'string' },
		source: { type: 'string' },
		verdict: { type: 'string' },
		// Why the YARA check cannot run here (scan.sh: the `yara` program is missing); it is then reported not run.
		'yara-missing': { type: 'string' },
	},
});

if (values.verdict !== undefined) {
	process.exit(readCliVerdict(readFileSync(values.verdict, 'utf8')));
}

for (const option of ['scanner', 'rules', 'tarball', 'source']) {
	if (values[option] === undefined || (option !== 'rules' && values[option] === '')) {
		console.error(
			`Missing --${option}: see the top of scripts/scan-package.mjs for the arguments.`,
		);
		process.exit(2);
	}
}
// eslint-plugin-n8n-nodes-base takes NODE_ENV=test (set by jest) for its own test run and then
// checks made-up file names; the scan must see the real ones wherever it is started from.
delete process.env.NODE_ENV;
const packageDir = path.resolve(values.tarball);
const checks = [
	['Package manifest', checkManifest(packageDir)],
	['ESLint, tarball', await eslintLeg(values.scanner, packageDir, ['**/*.js', 'package.json'])],
	['ESLint, sources', await eslintLeg(values.scanner, path.resolve(values.source), 'source')],
	[
		'YARA threat rules',
		values['yara-missing'] !== undefined
			? { notRun: true, message: values['yara-missing'] }
			: values.rules === ''
				? rulesMissing()
				: yaraLeg(path.resolve(values.rules), packageDir),
	],
];

let failed = 0;
let notRun = 0;
for (const [name, result] of checks) {
	if (result.notRun) {
		notRun++;
		console.log(`⚠️  ${name}: not run: ${result.message}`);
	} else if (result.passed) {
		console.log(`✅ ${name}: passed${result.summary ? ` (${result.summary})` : ''}`);
	} else {
		failed++;
		console.log(
			`❌ ${name}: failed: ${result.message}${result.details ? `\n${indent(result.details)}` : ''}`,
		);
	}
}
console.log(
	'ℹ️  Provenance: not checked. An unpublished package has no npm provenance statement; n8n checks it on ' +
		"the published version, and publish.yml runs n8n's scanner on that version right after `npm publish --provenance`.",
);
if (failed > 0) {
	console.log(
		`❌ Package scan failed: ${failed} of ${checks.length} checks found something to fix (above).`,
	);
	process.exit(1);
}
console.log(
	notRun === 0
		? `✅ Package scan passed: all ${checks.length} checks.`
		: `✅ Package scan passed: ${checks.length - notRun} of ${checks.length} checks run, ${notRun} not run (above).`,
);

function indent(text) {
	return text
		.trim()
		.split('\n')
		.map((line) => `    ${line}`)
		.join('\n');
}

/** The verdict of `npx @n8n/scan-community-package <name>@<version>`: 0 when it passed, 1 otherwise. */
function readCliVerdict(output) {
	if (
		/^❌ .* has failed security checks/m.test(output) ||
		/^❌ Provenance check failed/m.test(output)
	) {
		console.error(`n8n's scanner failed the package:\n${indent(output)}`);
		return 1;
	}
	if (/^✅ Package \S+ has passed all security checks/m.test(output)) {
		console.log(output.trim());
		return 0;
	}
	console.error(
		`n8n's scanner gave no verdict (neither passed nor failed):\n${indent(output || '(no output)')}`,
	);
	return 1;
}

function checkManifest(dir) {
	const problems = [];
	const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const dependencies = Object.keys(manifest.dependencies ?? {});
	if (dependencies.length > 0)
		problems.push(`package.json has runtime dependencies: ${dependencies.join(', ')}`);
	for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
		if (manifest.scripts?.[hook])
			problems.push(`package.json has a "${hook}" script, which runs on install`);
	}
	const registered = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	if (registered.length === 0)
		problems.push('package.json registers no nodes or credentials in its "n8n" section');
	for (const file of registered) {
		if (!existsSync(path.join(dir, file)))
			problems.push(`package.json names ${file}, which is not in the package`);
	}
	return problems.length === 0
		? {
				passed: true,
				summary: `${registered.length} registered files present, no dependencies or install scripts`,
			}
		: { passed: false, message: `${problems.length} found`, details: problems.join('\n') };
}

async function eslintLeg(scannerPath, dir, patterns) {
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		pathToFileURL(path.resolve(scannerPath)).href
	);
	const result = await analyzePackage(dir, patterns === 'source' ? SOURCE_FILE_PATTERNS : patterns);
	return result.passed
		? { passed: true, summary: result.message ?? 'no violations' }
		: { passed: false, message: result.message, details: result.details };
}

/** A rule file's own rule and the metadata that decides where it applies. */
function readRule(file) {
	const text = readFileSync(file, 'utf8');
	const name = /^rule\s+(\w+)/m.exec(text)?.[1];
	const own = name ? text.slice(text.search(new RegExp(`^rule\\s+${name}\\b`, 'm'))) : '';
	const meta = (key) => new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, 'm').exec(own)?.[1];
	return {
		file,
		name,
		include: meta('path_include'),
		exclude: meta('path_exclude'),
		description: meta('description'),
	};
}

function globsMatch(globs, relativePath) {
	if (!globs) return false;
	return globs.split(',').some((glob) => {
		const pattern = new RegExp(
			`^${glob
				.trim()
				.replace(/[.+^${}()|[\]\\]/g, '\\$&')
				.replace(/\*/g, '.*')}$`,
		);
		return pattern.test(relativePath) || pattern.test(path.posix.basename(relativePath));
	});
}

/** GuardDog's rules come from GitHub: scan.sh passes no folder where they are not cached. */
function rulesMissing() {
	return {
		notRun: true,
		message:
			"GuardDog's rules are not cached on this machine, which cannot download them; run `bash scripts/scan.sh " +
			'--fetch-rules` where GitHub is reachable (publish.yml does, and requires the check)',
	};
}

function yaraLeg(rulesDir, dir) {
	const rules = readdirSync(rulesDir)
		.filter((file) => /^threat-.*\.yar$/.test(file))
		.sort()
		.map((file) => readRule(path.join(rulesDir, file)));
	if (rules.length === 0 || rules.some((rule) => !rule.name)) {
		return { passed: false, message: `no readable threat rules in ${rulesDir}` };
	}
	// One namespace per rule file: several include the same private helper rules.
	const run = spawnSync(
		'yara',
		['-w', '-s', '-r', '-N', '-e', ...rules.map((rule) => `${rule.name}:${rule.file}`), dir],
		{
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		},
	);
	if (run.error || run.status !== 0) {
		return {
			passed: false,
			message: `yara did not run: ${run.error?.message ?? run.stderr.trim()}`,
		};
	}
	const byName = new Map(rules.map((rule) => [rule.name, rule]));
	const findings = [];
	let current;
	for (const line of run.stdout.split('\n')) {
		const offset = /^0x([0-9a-f]+):\$/.exec(line);
		if (offset) {
			if (current && current.offset === undefined) current.offset = Number.parseInt(offset[1], 16);
			continue;
		}
		const hit = /^(\w+):(\w+) (.+)$/.exec(line);
		if (!hit) continue;
		current = undefined;
		const rule = byName.get(hit[2]);
		const relativePath = path.relative(dir, hit[3]).split(path.sep).join('/');
		if (!rule || (rule.include && !globsMatch(rule.include, `package/${relativePath}`))) continue;
		if (globsMatch(rule.exclude, `package/${relativePath}`)) continue;
		current = { rule, file: hit[3], relativePath, offset: undefined };
		findings.push(current);
	}
	if (findings.length === 0)
		return { passed: true, summary: `${rules.length} threat rules, no findings` };
	return {
		passed: false,
		message: `${findings.length} YARA rule match${findings.length === 1 ? '' : 'es'}`,
		details: findings.map(describeFinding).join('\n'),
	};
}

function describeFinding({ rule, file, relativePath, offset }) {
	let where = relativePath;
	let text = '';
	if (offset !== undefined) {
		const content = readFileSync(file);
		const before = content.subarray(0, offset).toString('utf8');
		const end = content.indexOf(0x0a, offset);
		where += `:${before.split('\n').length}`;
		text = content
			.subarray(before.lastIndexOf('\n') + 1, end === -1 ? undefined : end)
			.toString('utf8')
			.trim()
			.slice(0, 160);
	}
	const name = rule.name.replace(/_/g, '-');
	return `${where}  ${name}: ${rule.description ?? name}${text ? `\n  ${text}` : ''}`;
}
