/**
 * One progress line for a jest run (issue 42): files done of all, tests passed and failed so far (of about how
 * many the last run of the same label had), and the seconds since it began. On a terminal jest's own status
 * lines say as much, so nothing is added; in a log or pipe (CI), a line comes at most every 15 s.
 * EMBROIDERY_PROGRESS_LABEL names the run ("jest" otherwise).
 */
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const cacheDirectory = require('./cacheDirectory');

class ProgressReporter {
	constructor() {
		this.label = process.env.EMBROIDERY_PROGRESS_LABEL || 'jest';
		// When EMBROIDERY_PROGRESS_DIR names a folder, the line goes into <label>.progress there instead
		// (rewritten): test/e2e/run.sh shows the lines of environments running side by side as one.
		const dir = process.env.EMBROIDERY_PROGRESS_DIR;
		this.file = dir ? join(dir, `${this.label.replace(/[^\w-]+/g, '_')}.progress`) : undefined;
		this.memory = join(
			cacheDirectory,
			`embroidery-progress-${this.label.replace(/[^\w-]+/g, '_')}.json`,
		);
		this.lastPrinted = 0;
		this.inPlace = !this.file && process.stderr.isTTY === true;
	}

	onRunStart(results) {
		this.started = Date.now();
		this.files = results.numTotalTestSuites;
		this.expectedTests = undefined;
		try {
			// The last run's count, when it ran the same number of files (the same selection, most likely).
			const last = existsSync(this.memory) ? JSON.parse(readFileSync(this.memory, 'utf8')) : {};
			if (last.files === this.files) this.expectedTests = last.tests;
		} catch {
			// A memory that cannot be read only loses the "of about".
		}
		this.show(results, true);
		// A file may run for minutes (the end-to-end ones do): the line comes every 30 s meanwhile too.
		this.latest = results;
		this.timer = setInterval(() => this.show(this.latest, true), 30_000);
		this.timer.unref();
	}

	onTestFileResult(_test, _result, results) {
		this.latest = results;
		this.show(results, false);
	}

	onRunComplete(_contexts, results) {
		clearInterval(this.timer);
		this.show(results, true);
		if (results.numRuntimeErrorTestSuites === 0 && results.numTotalTestSuites === this.files) {
			try {
				mkdirSync(join(this.memory, '..'), { recursive: true });
				writeFileSync(
					this.memory,
					JSON.stringify({ files: this.files, tests: results.numTotalTests }),
				);
			} catch {
				// Only the next run's "of about" is lost.
			}
		}
	}

	line(results) {
		const done =
			results.numPassedTestSuites + results.numFailedTestSuites + results.numPendingTestSuites;
		const tests = results.numPassedTests + results.numFailedTests + results.numPendingTests;
		const of = this.expectedTests ? ` of about ${this.expectedTests}` : '';
		const seconds = Math.round((Date.now() - this.started) / 1000);
		return (
			`${this.label}: ${done} of ${this.files} files, ${tests}${of} tests done ` +
			`(${results.numFailedTests} failed), ${seconds} s`
		);
	}

	show(results, always) {
		const text = this.line(results);
		if (this.file) {
			writeFileSync(this.file, `${text}\n`);
			return;
		}
		if (this.inPlace) return;
		if (!always && Date.now() - this.lastPrinted < 15_000) return;
		this.lastPrinted = Date.now();
		process.stderr.write(`${text}\n`);
	}
}

module.exports = ProgressReporter;
