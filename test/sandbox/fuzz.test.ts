import { runFuzz, rssBoundMb } from '../../bench/fuzz';

// The slice of `npm run bench:fuzz` that runs in npm test; it shares two cores with everything else.
jest.setTimeout(15 * 60_000);

describe('Fuzz slice through the real job path (bench/fuzz.ts)', () => {
	it('takes 300 mutated and generated embroidery files and 50 hostile artworks: no crash, every job ends, nothing left behind', async () => {
		// A 10 s job timeout instead of 120 s keeps the slice short: hostile SVGs may run into it.
		const report = await runFuzz({ files: 300, artworks: 50, seed: 13, jobTimeoutSeconds: 10 });
		expect(report.crashExamples).toEqual([]);
		expect(report.crashes).toBe(0);
		expect(report.nonTerminal).toBe(0);
		expect(report.jobs + report.refusedAtUpload).toBe(350);
		expect(report.leftoverTempFiles).toBe(0);
		expect(report.peakRssMb).toBeGreaterThan(0);
		expect(report.peakRssMb).toBeLessThan(rssBoundMb);
		// The ceilings reach the job: exploding sources fail with their own code, readable ones complete.
		expect(report.outcomes.pattern_too_large).toBeGreaterThan(0);
		expect(report.outcomes.unreadable_source).toBeGreaterThan(0);
		expect(report.outcomes.completed).toBeGreaterThan(0);
	});
});
