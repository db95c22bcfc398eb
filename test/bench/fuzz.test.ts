import { runFuzz, rssBoundMb } from '../../bench/fuzz';

// The slice of `npm run bench:fuzz` that runs in npm test; it shares two cores with everything else.
jest.setTimeout(10 * 60_000);

describe('Fuzz slice through the real job path (bench/fuzz.ts)', () => {
	it(
		'takes 200 mutated and generated embroidery files and 28 hostile artworks (each kind ' +
			'twice): no crash, every job ends, nothing left behind',
		async () => {
			// A 60 s job timeout instead of 120 s bounds the slice should a job run long; 10 s was too short for
			// ordinary jobs on 2 cores at load average 27 (11 engine_timeouts, issue 42). A hostile input the
			// ceilings missed would still run into it.
			const report = await runFuzz({ files: 200, artworks: 28, seed: 13, jobTimeoutSeconds: 60 });
			expect(report.crashExamples).toEqual([]);
			expect(report.crashes).toBe(0);
			expect(report.nonTerminal).toBe(0);
			expect(report.jobs + report.refusedAtUpload).toBe(228);
			// Every input is a recorded job or a refusal at upload: none lost, unsent or unaccounted for.
			expect(report.recordedJobs).toBe(report.jobs);
			expect(report.lostWithRequest).toBe(0);
			expect(report.notSent).toBe(0);
			expect(report.unaccounted).toBe(0);
			expect(report.leftoverTempFiles).toBe(0);
			expect(report.orphanFiles).toBe(0);
			expect(report.storedFiles).toBe(report.expectedStoredFiles);
			expect(report.peakRssMb).toBeGreaterThan(0);
			expect(report.peakRssMb).toBeLessThan(rssBoundMb);
			// The sandbox stops within a few seconds of SIGTERM (3 s for running jobs, then the engine is killed).
			expect(report.stopSeconds).not.toBeNull();
			expect(report.stopSeconds!).toBeLessThan(10);
			// The ceilings reach the job: exploding sources fail with their own code, readable ones complete,
			// and hostile artwork is refused with its own code rather than run into the timeout.
			expect(report.outcomes.pattern_too_large).toBeGreaterThan(0);
			expect(report.outcomes.unreadable_source).toBeGreaterThan(0);
			expect(report.outcomes.unreadable_artwork).toBeGreaterThan(0);
			expect(report.outcomes.artwork_too_large).toBeGreaterThan(0);
			expect(report.outcomes.completed).toBeGreaterThan(0);
			expect(report.outcomes.engine_timeout ?? 0).toBe(0);
		},
	);
});
