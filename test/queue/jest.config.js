/** The queue-mode suite: Postgres, Redis, the sandbox and an n8n main with two workers (test/queue/run.sh). */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.e2e.ts'],
	// Transpile only (ts-jest, test/support/transform.js); `npm run typecheck` checks the types once.
	transform: require('../support/transform'),
	// One environment for the whole file; every wait inside is bounded on its own.
	testTimeout: 900000,
	maxWorkers: 1,
	verbose: true,
};
