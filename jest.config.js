/** Unit and integration tests; the end-to-end suite in a real n8n runs separately (npm run test:e2e). */
const { availableParallelism } = require('node:os');

module.exports = {
	// Two workers per core: many files spend much of their time waiting (on a sandbox's jobs, a real-time
	// window, a child process), and one worker per core kept two cores less than half busy (555 s of CPU in a
	// 609 s run). Files are independent (every sandbox on a free port with a temporary data folder), so they
	// run side by side.
	maxWorkers: 2 * availableParallelism(),
	testSequencer: '<rootDir>/test/support/sequencer.js',
	// jest's Node environment with ordinary globals: V8 runs hot loops there as fast as in plain Node.
	testEnvironment: '<rootDir>/test/support/environment.js',
	// The same transform cache whatever TMPDIR scripts/test.sh sets for its run.
	cacheDirectory: require('./test/support/cacheDirectory'),
	// jest's own output, and one progress line (files and tests done, seconds) where jest shows none: logs, CI.
	reporters: ['default', '<rootDir>/test/support/progressReporter.js'],
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	// Transpile only (ts-jest, test/support/transform.js); `npm run typecheck` checks the types once.
	transform: require('./test/support/transform'),
	// A test's limit only catches a hang: CPU-bound tests of a few seconds (the digitiser's) took over 30 s beside
	// other runs on 2 cores (load average 70, issue 42); a file that needs more says so with jest.setTimeout.
	testTimeout: 120_000,
	// A sandbox per worker for the files that need only a plain service (test/support/workerSandboxes.ts).
	globalSetup: '<rootDir>/test/support/global-setup.ts',
	globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
