/**
 * What `npm publish` would ship, read from `npm pack --dry-run` over the built package (npm run build
 * first; scripts/test.sh does): only what n8n loads, every source compiled, and a stated size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * The packed tarball stays under 96 kB and under 384 kB unpacked: 73 kB and 292 kB in 80 files with node
 * version 3, the Source URL's address checks and the trigger's saved state (0.2.0 shipped 71 kB and 259 kB, 59 kB
 * of it the README, which is now a user's page of 15 kB); the rest is headroom.
 */
const maxPackedBytes = 96_000;
const maxUnpackedBytes = 384_000;

interface PackResult {
	size: number;
	unpackedSize: number;
	files: Array<{ path: string; size: number }>;
}

function sourcesUnder(folder: string): string[] {
	return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
		.map((file) => path.join(folder, file).split(path.sep).join('/'));
}

let pack: PackResult;

beforeAll(() => {
	if (!existsSync(path.join(root, 'dist/nodes/Embroidery/Embroidery.node.js'))) {
		throw new Error('dist/ is missing: run `npm run build` before this test');
	}
	const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	[pack] = JSON.parse(output) as PackResult[];
}, 60_000);

describe('the published package', () => {
	test('holds only the compiled nodes and credentials, their icons and codex, and the package files', () => {
		const shipped = pack.files.map((file) => file.path);
		const allowed = [
			/^package\.json$/,
			/^README\.md$/,
			/^LICENSE$/,
			/^CHANGELOG\.md$/,
			/^dist\/(nodes|credentials)\/.+\.js$/,
			/^dist\/nodes\/.+\.node\.json$/,
			/^dist\/icons\/[^/]+\.svg$/,
		];
		expect(shipped.filter((file) => !allowed.some((pattern) => pattern.test(file)))).toEqual([]);
		for (const unwanted of [
			/\.map$/,
			/\.d\.ts$/,
			/tsbuildinfo/,
			/^(test|sandbox|scripts|bench|examples|docs)\//,
			/\.ts$/,
		]) {
			expect(shipped.filter((file) => unwanted.test(file))).toEqual([]);
		}
	});

	test('ships every node and credential source compiled, and nothing compiled from a source that is gone', () => {
		const shipped = new Set(pack.files.map((file) => file.path));
		const sources = [...sourcesUnder('nodes'), ...sourcesUnder('credentials')];
		expect(
			sources.filter((source) => !shipped.has(`dist/${source.replace(/\.ts$/, '.js')}`)),
		).toEqual([]);
		const compiled = [...shipped].filter((file) =>
			/^dist\/(nodes|credentials)\/.+\.js$/.test(file),
		);
		expect(
			compiled.filter(
				(file) => !sources.includes(file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
			),
		).toEqual([]);
	});

	test('holds every file its n8n section registers, and the icons the nodes and credential name', () => {
		const shipped = new Set(pack.files.map((file) => file.path));
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
			dependencies?: Record<string, string>;
		};
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect(shipped).toContain(file);
		expect(shipped).toContain('dist/icons/embroidery.svg');
		expect(shipped).toContain('dist/icons/embroidery.dark.svg');
		expect(manifest.dependencies ?? {}).toEqual({});
	});

	test(`stays under ${maxPackedBytes / 1000} kB packed and ${maxUnpackedBytes / 1000} kB unpacked`, () => {
		expect(pack.size).toBeLessThan(maxPackedBytes);
		expect(pack.unpackedSize).toBeLessThan(maxUnpackedBytes);
	});
});
