/**
 * Local stand-ins for the packages scripts/n8n.sh and scripts/node24.sh install from the registry, so the
 * install tests drive the real shell functions without downloading n8n (3 GB) again and again:
 *   n8n      a package with an `n8n` command that prints its version
 *   sqlite3  a package whose install script (run by `npm rebuild sqlite3`) writes build/Release/node_sqlite3.node,
 *            which the package loads (and refuses unless that script wrote it)
 *   node     a package whose preinstall script puts a Node binary (this test's) into bin/node, as the
 *            registry's `node` package fetches the platform's
 * Each script can stop at a gate: it writes `<gates>/<name>.reached` and waits until `<gates>/<name>.open`
 * exists, so a test can kill the install at that very step.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StandIns {
	/** For EMBROIDERY_N8N_DEPENDENCIES. */
	n8nDependencies: string;
	/** For EMBROIDERY_NODE_PACKAGE. */
	nodePackage: string;
	/** The gates folder (EMBROIDERY_STAND_IN_GATES turns them on). */
	gates: string;
	n8nVersion: string;
}

/** A script that waits at its gate when EMBROIDERY_STAND_IN_GATES names the gates folder. */
function gateScript(name: string, then: string): string {
	return `const { existsSync, writeFileSync } = require('node:fs');
const gates = process.env.EMBROIDERY_STAND_IN_GATES;
function done() {
${then}
}
if (!gates) done();
else {
	writeFileSync(gates + '/${name}.reached', String(process.pid));
	const wait = () => (existsSync(gates + '/${name}.open') ? done() : setTimeout(wait, 20));
	wait();
}
`;
}

function pack(folder: string, name: string, files: Record<string, string>): string {
	const source = join(folder, name);
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(join(source, 'package', path, '..'), { recursive: true });
		writeFileSync(join(source, 'package', path), text);
		if (path.startsWith('bin/')) chmodSync(join(source, 'package', path), 0o755);
	}
	const tarball = join(folder, `${name}.tgz`);
	const tar = spawnSync('tar', ['-czf', tarball, '-C', source, 'package'], { encoding: 'utf8' });
	if (tar.status !== 0) throw new Error(`tar could not pack ${name}: ${tar.stderr}`);
	return `file:${tarball}`;
}

export function makeStandIns(folder: string): StandIns {
	const gates = join(folder, 'gates');
	mkdirSync(gates, { recursive: true });
	const n8nVersion = '9.9.9-stand-in';
	const n8n = pack(folder, 'n8n', {
		'package.json': JSON.stringify({ name: 'n8n', version: n8nVersion, bin: { n8n: 'bin/n8n' } }),
		'bin/n8n': "#!/usr/bin/env node\nconsole.log(require('../package.json').version);\n",
	});
	const sqlite3 = pack(folder, 'sqlite3', {
		'package.json': JSON.stringify({
			name: 'sqlite3',
			version: '5.1.7-stand-in',
			main: 'index.js',
			scripts: { install: 'node build.js' },
		}),
		// Loads as a binding does: only what the build script writes.
		'index.js': `const text = require('node:fs').readFileSync(__dirname + '/build/Release/node_sqlite3.node', 'utf8');
if (text !== 'stand-in binding') throw new Error('node_sqlite3.node is not a binding this Node can load');
`,
		'build.js': gateScript(
			'sqlite3',
			`	require('node:fs').mkdirSync('build/Release', { recursive: true });
	writeFileSync('build/Release/node_sqlite3.node', 'stand-in binding');`,
		),
	});
	const node = pack(folder, 'node', {
		'package.json': JSON.stringify({
			name: 'node',
			version: '24.0.0-stand-in',
			bin: { node: 'bin/node' },
			scripts: { preinstall: 'node fetch.js' },
		}),
		'bin/node': '#!/bin/sh\necho "the preinstall script did not run" >&2\nexit 1\n',
		'fetch.js': gateScript(
			'node',
			`	require('node:fs').copyFileSync(${JSON.stringify(process.execPath)}, 'bin/node');`,
		),
	});
	return {
		n8nDependencies: JSON.stringify({ n8n: n8n, sqlite3 }),
		nodePackage: node,
		gates,
		n8nVersion,
	};
}
