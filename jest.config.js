/** Unit and integration tests; the end-to-end suite in a real n8n runs separately (npm run test:e2e). */
const { availableParallelism } = require('node:os');

module.exports = {
	// One worker per core, at least two: jest's default leaves one core idle on a two-core machine. Files
	// are independent (every sandbox on a free port with a temporary data folder), so they run side by side.
	maxWorkers: Math.max(2, availableParallelism()),
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	// Transpile only: tsconfig.test.json sets isolatedModules, so ts-jest compiles each file on its own and
	// checks no types. `npm run typecheck` checks them once for the whole project (scripts/test.sh runs it).
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	testTimeout: 30000,
};
