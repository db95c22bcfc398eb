// Scans an unpacked package tarball with the checks n8n applies to community packages:
// every .js file linted for restricted globals and for imports outside the allowed modules
// (the lists @n8n/scan-community-package and n8n's community-node lint use), inline
// eslint-disable comments ignored; package.json without runtime dependencies or install
// scripts; every file the "n8n" section names present in the tarball.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const packageDir = path.resolve(process.argv[2] ?? '.');

const restrictedGlobals = new Set([
	'clearInterval',
	'clearTimeout',
	'global',
	'globalThis',
	'process',
	'setInterval',
	'setTimeout',
	'setImmediate',
	'clearImmediate',
	'__dirname',
	'__filename',
]);
const allowedModules = new Set(['n8n-workflow', 'lodash', 'moment', 'p-limit', 'luxon', 'zod', 'crypto', 'node:crypto']);

function moduleNameOf(specifier) {
	if (specifier.startsWith('./') || specifier.startsWith('../')) return null;
	return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
}

const scanPlugin = {
	rules: {
		'restricted-globals': {
			create(context) {
				return {
					Identifier(node) {
						if (!restrictedGlobals.has(node.name)) return;
						const parent = node.parent;
						// `x.process` is a property, not the global; `process.env` and bare use are.
						if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed) return;
						context.report({ node, message: `Use of restricted global '${node.name}'` });
					},
				};
			},
		},
		'allowed-imports': {
			create(context) {
				const check = (node, specifier) => {
					if (typeof specifier !== 'string') return;
					const name = moduleNameOf(specifier);
					if (name !== null && !allowedModules.has(name)) {
						context.report({ node, message: `Import of '${specifier}' is not allowed in a community package` });
					}
				};
				return {
					ImportDeclaration: (node) => check(node, node.source.value),
					ImportExpression: (node) => check(node, node.source.value),
					CallExpression(node) {
						if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
							check(node, node.arguments[0].value);
						}
						if (node.callee.type === 'Identifier' && node.callee.name === 'eval') {
							context.report({ node, message: 'Use of eval' });
						}
					},
					NewExpression(node) {
						if (node.callee.type === 'Identifier' && node.callee.name === 'Function') {
							context.report({ node, message: 'Use of the Function constructor' });
						}
					},
				};
			},
		},
	},
};

const problems = [];

const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
	problems.push(`package.json has runtime dependencies: ${Object.keys(manifest.dependencies).join(', ')}`);
}
for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
	if (manifest.scripts?.[hook]) problems.push(`package.json has a "${hook}" script, which runs on install`);
}
if (!manifest.keywords?.includes('n8n-community-node-package')) {
	problems.push('package.json lacks the keyword n8n-community-node-package');
}
const registered = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
if (registered.length === 0) problems.push('package.json registers no nodes or credentials in its "n8n" section');
for (const file of registered) {
	if (!existsSync(path.join(packageDir, file))) problems.push(`package.json names ${file}, which is not in the package`);
}

const eslint = new ESLint({
	cwd: packageDir,
	allowInlineConfig: false,
	overrideConfigFile: true,
	overrideConfig: [
		{
			files: ['**/*.js'],
			plugins: { scan: scanPlugin },
			rules: { 'scan/restricted-globals': 'error', 'scan/allowed-imports': 'error' },
			languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs' },
		},
	],
});
const results = await eslint.lintFiles(['**/*.js']);
const scanned = results.length;
for (const result of results) {
	for (const message of result.messages) {
		problems.push(`${path.relative(packageDir, result.filePath)}:${message.line}:${message.column} ${message.message}`);
	}
}

if (problems.length > 0) {
	console.error(`Package scan failed (${problems.length} problems):\n  ${problems.join('\n  ')}`);
	process.exit(1);
}
console.log(`Package scan passed: ${scanned} JavaScript files, ${registered.length} registered nodes and credentials, no dependencies or install scripts.`);
