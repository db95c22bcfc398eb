/**
 * The package's import graph, type-only imports included: no file imports itself through others (types live in
 * leaf files), and imports point inwards as docs/architecture.md says (actions/ and trigger/ -> helpers/ ->
 * transport/). Read from the source text, so a cycle that TypeScript erases at build time still counts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative import and re-export of a file, resolved to the file it names. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
	const specifiers = [
		...text.matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*'(\.{1,2}\/[^']*)'/g),
	];
	return specifiers.flatMap(([, specifier]) => {
		const base = resolve(dirname(file), specifier);
		const target = [`${base}.ts`, join(base, 'index.ts'), base].find(
			(candidate) => existsSync(candidate) && statSync(candidate).isFile(),
		);
		return target ? [target] : [];
	});
}

/** The import circles of a graph: each strongly connected group of more than one file, or a file importing itself. */
function importCircles(graph: Map<string, string[]>): string[][] {
	const order = new Map<string, number>();
	const lowest = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const circles: string[][] = [];
	const visit = (file: string): void => {
		order.set(file, order.size);
		lowest.set(file, order.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!order.has(next)) {
				visit(next);
				lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
			} else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
		}
		if (lowest.get(file) !== order.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
	};
	for (const file of graph.keys()) if (!order.has(file)) visit(file);
	return circles;
}

const files = ['nodes', 'credentials'].flatMap((folder) => sourceFiles(join(repoRoot, folder)));
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const shown = (file: string) => relative(repoRoot, file);

describe("the package's imports", () => {
	test('form no circle, type-only imports included', () => {
		const circles = importCircles(graph).map((group) => group.map(shown).join(' -> '));
		expect(circles).toEqual([]);
	});

	test('point inwards: actions/ and trigger/ -> helpers/ -> transport/, never back', () => {
		const layer = (file: string) => shown(file).split('/')[2];
		const outwards = [...graph].flatMap(([file, imported]) =>
			imported
				.filter((target) => {
					const from = layer(file);
					const to = layer(target);
					if (from === 'transport') return to === 'helpers' || to === 'actions' || to === 'trigger';
					if (from === 'helpers') return to === 'actions' || to === 'trigger';
					return false;
				})
				.map((target) => `${shown(file)} imports ${shown(target)}`),
		);
		expect(outwards).toEqual([]);
	});

	test('the scan finds a circle where there is one, a type-only import included', () => {
		const a = join(repoRoot, 'nodes/Embroidery/transport/a.ts');
		const b = join(repoRoot, 'nodes/Embroidery/transport/b.ts');
		const routes = join(repoRoot, 'nodes/Embroidery/transport/routes.ts');
		// importsOf resolves what exists: routes.ts does, so a type-only import of it is an edge.
		expect(importsOf(a, "import type { Route } from './routes';\nexport const x = 1;")).toEqual([
			routes,
		]);
		expect(
			importCircles(
				new Map([
					[a, [b]],
					[b, [routes]],
					[routes, [a]],
				]),
			),
		).toEqual([[a, b, routes].sort()]);
		expect(
			importCircles(
				new Map([
					[a, [b]],
					[b, []],
				]),
			),
		).toEqual([]);
	});
});
