import { ulid } from 'ulid';

import {
	jobIdInLinkPattern,
	jobIdPattern,
	jobKey,
	parseJobLink,
	smallestUlidAt,
	ulidTime,
} from '../../../../nodes/Embroidery/transport/jobIds';

describe("a job's id, read as the ULID it is", () => {
	test('the first ten characters are the creation time in milliseconds', () => {
		const created = Date.UTC(2026, 10, 23, 8, 0, 0, 123);
		expect(ulidTime(ulid(created))).toBe(created);
		expect(ulidTime(ulid(created).toLowerCase())).toBe(created);
		expect(ulidTime('not a ulid at all, 26 char')).toBeUndefined();
		expect(ulidTime(ulid(created).slice(0, 20))).toBeUndefined();
	});

	test('the smallest ULID of a millisecond carries that millisecond and sorts before every id made in it', () => {
		const created = Date.UTC(2026, 10, 23, 8, 0, 0, 123);
		const smallest = smallestUlidAt(created);
		expect(ulidTime(smallest)).toBe(created);
		expect(smallest <= ulid(created)).toBe(true);
		expect(smallest > ulid(created - 1)).toBe(true);
	});

	test('the pattern takes a ULID in either case and refuses the letters Crockford leaves out', () => {
		const whole = new RegExp(`^${jobIdPattern}$`);
		const id = ulid();
		expect(whole.test(id)).toBe(true);
		expect(whole.test(id.toLowerCase())).toBe(true);
		for (const letter of ['I', 'L', 'O', 'U'])
			expect(whole.test(`${id.slice(0, 25)}${letter}`)).toBe(false);
		expect(whole.test(id.slice(1))).toBe(false);
	});

	test('a job link names the job, its workflow selecting the route; the key is the same in either case', () => {
		const id = ulid();
		const link = `http://127.0.0.1:8787/api/v1/jobs/digitising/${id.toLowerCase()}?tab=files`;
		expect(parseJobLink(link)).toEqual({ workflow: 'digitising', id });
		expect(new RegExp(jobIdInLinkPattern).exec(link)?.[1]).toBe(id.toLowerCase());
		expect(parseJobLink(`http://127.0.0.1:8787/api/v1/jobs/embroidery/${id}`)).toBeUndefined();
		expect(jobKey({ workflow: 'digitising', id: id.toLowerCase() })).toBe(`digitising/${id}`);
	});
});
