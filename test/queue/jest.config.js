/** The queue-mode suite: Postgres, Redis, the sandbox and an n8n main with two workers (test/queue/run.sh). */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// The same transform cache whatever TMPDIR scripts/test.sh sets for its run.
	cacheDirectory: require('../support/cacheDirectory'),
	// jest's own output, and one progress line (files and tests done, seconds) where jest shows none: logs, CI.
	reporters: ['default', '<rootDir>/test/support/progressReporter.js'],
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.e2e.ts'],
	// Transpile only (ts-jest, test/support/transform.js); `npm run typecheck` checks the types once.
	transform: require('../support/transform'),
	// One environment for the whole file; every wait inside is bounded on its own.
	testTimeout: 900000,
	maxWorkers: 1,
	verbose: true,
};
