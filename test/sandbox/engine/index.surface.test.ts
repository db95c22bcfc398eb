/**
 * sandbox/engine/index.ts is the engine's surface: code outside sandbox/engine/ imports the engine only through
 * it (the upload inspection thread's registry import aside, which keeps sharp out of that thread), and every
 * sandbox file is named in one style, camelCase.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { repositoryRoot } from '../../support/sandboxProcess';

const sandboxRoot = join(repositoryRoot, 'sandbox');
const engineRoot = join(sandboxRoot, 'engine');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Each relative import of a file, resolved to a path without its extension. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/from '(\.{1,2}\/[^']*)'/g)].map((match) => match[1]);
	return specifiers.map((specifier) => resolve(file, '..', specifier));
}

const allowed = new Map([['services/workers/inspection.ts', join(engineRoot, 'registry')]]);

describe('the engine surface', () => {
	it('is the only way into sandbox/engine/ from the rest of the sandbox', () => {
		const reachingIn = sourceFiles(sandboxRoot)
			.filter((file) => !file.startsWith(engineRoot + '/'))
			.flatMap((file) => {
				const name = relative(sandboxRoot, file);
				return importsOf(file)
					.filter((target) => target.startsWith(engineRoot + '/'))
					.filter((target) => allowed.get(name) !== target)
					.map((target) => `${name} imports ${relative(sandboxRoot, target)}`);
			});
		expect(reachingIn).toEqual([]);
	});

	it('leaves no sandbox file named in kebab-case', () => {
		const kebab = sourceFiles(sandboxRoot)
			.map((file) => relative(sandboxRoot, file))
			.filter((name) => /[a-z0-9]-[a-z0-9]/.test(name.split('/').pop() ?? ''));
		expect(kebab).toEqual([]);
	});
});
