/**
 * What real n8n makes of this package's nodes: the node types `n8n export:nodes` writes for it (every
 * version of the action node, its tool variant and the trigger), from the built package installed as a
 * community package. Run after `npm run build`:
 *
 *   tsx scripts/node-descriptions.ts --write   saves them as the snapshot (test/package/snapshots/)
 *   tsx scripts/node-descriptions.ts           compares them with the snapshot, byte for byte; exit 1 on a difference
 *
 * A change to the code that should not change what users see (a refactoring) keeps the snapshot identical;
 * a change that should is written with --write and shows in the diff.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LocalN8n, n8nRuntime, packageName, repoRoot } from './n8n';

export function snapshotFile(n8nVersion: string): string {
	return join(repoRoot, 'test', 'package', 'snapshots', `export-nodes.n8n-${n8nVersion}.json`);
}

/** The package's node types as n8n exported them, one per line, in a fixed order. */
export async function exportedDescriptions(n8n: LocalN8n): Promise<string> {
	const ours = (await n8n.exportNodes()).filter((node) => node.name.startsWith(`${packageName}.`));
	const lines = ours
		.map((node) => JSON.stringify(node))
		.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	return `[\n${lines.join(',\n')}\n]\n`;
}

async function main(): Promise<void> {
	const write = process.argv.includes('--write');
	const userFolder = await mkdtemp(join(tmpdir(), 'embroidery-export-'));
	try {
		const n8n = await LocalN8n.create({ userFolder });
		await n8n.installPackage();
		const exported = await exportedDescriptions(n8n);
		const file = snapshotFile(n8nRuntime().version);
		if (write) {
			await writeFile(file, exported);
			console.log(`Wrote ${file} (${exported.length} bytes).`);
			return;
		}
		const saved = await readFile(file, 'utf8');
		if (saved === exported) {
			console.log(`Identical to ${file}.`);
			return;
		}
		const diffFile = join(tmpdir(), `export-nodes.${process.pid}.json`);
		await writeFile(diffFile, exported);
		console.error(`The exported descriptions differ from ${file}; this run's are in ${diffFile}.`);
		process.exitCode = 1;
	} finally {
		await rm(userFolder, { recursive: true, force: true });
	}
}

if (require.main === module) void main();
