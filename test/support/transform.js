/**
 * How the jest configs turn TypeScript (tests, nodes, sandbox, scripts) into what Node runs: swc, file by file,
 * with no type check (`npm run typecheck` checks types once, for the whole project). The output follows
 * tsconfig.json: ES2022 classes and fields, CommonJS modules, default imports of CommonJS packages as
 * esModuleInterop has them. swc needs no compiler loaded per worker and compiles a file in about a
 * millisecond, which is what a fresh clone (an empty transform cache) spends most on.
 */
module.exports = {
	'^.+\\.ts$': [
		'@swc/jest',
		{
			jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
			module: { type: 'commonjs' },
			sourceMaps: 'inline',
		},
	],
};
