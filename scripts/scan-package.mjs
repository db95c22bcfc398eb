// Runs n8n's community package scanner (@n8n/scan-community-package) over a package offline: its
// `analyzePackage` on the unpacked tarball (compiled .js and package.json, the "dist" leg) and on the
// sources (package.json, nodes/ and credentials/, the "source" leg), the two static checks the
// scanner applies after it has verified a published version's provenance. Adds what the scanner
// takes for granted from the registry: no runtime dependencies or install scripts, and every file
// the "n8n" section registers present in the tarball.
//   node scripts/scan-package.mjs <scanner.mjs> <unpacked tarball> <source folder>
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [scannerPath, packageDir, sourceDir] = process.argv.slice(2).map((arg) => path.resolve(arg));
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(scannerPath).href);

const problems = [];

const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
	problems.push(`package.json has runtime dependencies: ${Object.keys(manifest.dependencies).join(', ')}`);
}
for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
	if (manifest.scripts?.[hook]) problems.push(`package.json has a "${hook}" script, which runs on install`);
}
const registered = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
if (registered.length === 0) problems.push('package.json registers no nodes or credentials in its "n8n" section');
for (const file of registered) {
	if (!existsSync(path.join(packageDir, file))) problems.push(`package.json names ${file}, which is not in the package`);
}

const legs = [
	['tarball', await analyzePackage(packageDir, ['**/*.js', 'package.json'])],
	['source', await analyzePackage(sourceDir, SOURCE_FILE_PATTERNS)],
];
for (const [leg, result] of legs) {
	if (!result.passed) problems.push(`${leg}: ${result.message}${result.details ? `\n${result.details}` : ''}`);
}

if (problems.length > 0) {
	console.error(`Package scan failed (${problems.length} problems):\n  ${problems.join('\n  ')}`);
	process.exit(1);
}
console.log(
	`Package scan passed: @n8n/scan-community-package's static analysis of the tarball and of its sources, ${registered.length} registered nodes and credentials present, no dependencies or install scripts.`,
);
