import { fuzzGarbage, garbageTotal } from '../../bench/fuzz-garbage';

// The slice of the garbage table of `npm run bench:fuzz` that runs in npm test (the benchmark takes 1,000
// versions of each sample); it shares two cores with everything else. It runs in jest's own process since
// jest's environment gives test files ordinary globals (test/support/environment.js): in jest's default
// one the same 4,600 readings took 556 s against 10 s in plain Node, and the slice ran in a child process.
jest.setTimeout(5 * 60_000);

describe('Completed garbage among damaged and spliced shared samples (bench/fuzz-garbage.ts)', () => {
	it('200 versions of every shared sample: none completes wrong', () => {
		const rows = fuzzGarbage(200, 40);
		expect(rows.length).toBeGreaterThanOrEqual(23);
		const garbage = rows
			.filter((row) => row.garbage > 0)
			.map((row) => `${row.sample}: ${row.garbage} (${row.examples.join('; ')})`);
		expect(garbage).toEqual([]);
		expect(garbageTotal(rows)).toBe(0);
		// Star.EXP's first 512 bytes over Star.BRO, whose body is EXP records: two EXP streams joined, a valid
		// EXP file read as both in turn (docs/sandbox.md says why that is no damage).
		expect(rows.find((row) => row.sample === 'Star.EXP')!.joinedExp).toBe(1);
		// Every version is judged: refused or completed, and cut readings warn where the format can tell.
		for (const row of rows) expect(row.refused + row.completed).toBe(200);
		for (const sample of ['Star.DST', 'Star.HUS', 'Star.VIP', 'Star.JEF', 'Star.SHV', 'Star.pes'])
			expect([sample, rows.find((row) => row.sample === sample)!.completedCut > 0]).toEqual([
				sample,
				true,
			]);
	});
});
