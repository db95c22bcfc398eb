/**
 * How the jest configs (unit, e2e, queue) turn TypeScript (tests, nodes, sandbox, scripts) into what Node runs:
 * ts-jest, the transform this project's design names. tsconfig.test.json sets isolatedModules, so ts-jest
 * transpiles each file on its own and checks no types; `npm run typecheck` checks them once, for the whole
 * project. The output follows tsconfig.json: ES2022 classes and fields, CommonJS modules, default imports of
 * CommonJS packages as esModuleInterop has them.
 */
module.exports = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
};
