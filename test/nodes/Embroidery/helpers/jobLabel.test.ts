import { ulid } from 'ulid';

import { ageOf, jobLabel } from '../../../../nodes/Embroidery/helpers/jobLabel';

describe("a job's age, read from its ULID", () => {
	test('written as people read it', () => {
		const now = Date.UTC(2026, 10, 23, 12, 0, 0);
		const ago = (ms: number) => ageOf(now - ms, now);
		expect(ago(30_000)).toBe('just now');
		expect(ago(-5_000)).toBe('just now');
		expect(ago(12 * 60_000)).toBe('12 min ago');
		expect(ago(3 * 3_600_000 + 59 * 60_000)).toBe('3 h ago');
		expect(ago(47 * 3_600_000)).toBe('47 h ago');
		expect(ago(5 * 86_400_000)).toBe('5 days ago');
		expect(ageOf(undefined, now)).toBe('age unknown');
	});

	test("a listing entry's label: source, output format, workflow, status, age", () => {
		const now = Date.UTC(2026, 10, 23, 12, 0, 0);
		const id = ulid(now - 2 * 3_600_000);
		const base = {
			id,
			kind: 'digitising' as const,
			status: 'failed' as const,
			formats: ['dst'],
			downloadsUnlocked: false,
		};
		expect(jobLabel({ ...base, title: 'logo.png' }, now)).toBe(
			'logo.png → DST · digitising · failed · 2 h ago',
		);
		expect(jobLabel({ ...base, formats: [] }, now)).toBe(
			'unnamed source · digitising · failed · 2 h ago',
		);
	});
});
