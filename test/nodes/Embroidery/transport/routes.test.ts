/**
 * The routes table is what a request is and what its failures mean: every route must carry its advice beside
 * its path, so the transport explains a failure from the route and never from its action's name.
 */
import { routes } from '../../../../nodes/Embroidery/transport/routes';
import type { JobRef } from '../../../../nodes/Embroidery/transport/jobIds';
import type { Route } from '../../../../nodes/Embroidery/transport/routes';

const ref: JobRef = { id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' };

const samples = {
	signedFile: [new URL('http://127.0.0.1:9/uploads/conversion/01J9Z3Q4W8Y6V5T2R1P0N9M8K7/out.dst')],
} satisfies { [Name in keyof typeof routes]?: Parameters<(typeof routes)[Name]> };

/**
 * Every route of the table, built with a sample: a route without parameters as it is, a job's route for `ref`,
 * any other with its sample above (a route added to the table needs none here unless it takes something else).
 */
const everyRoute: Array<[string, Route]> = Object.entries(routes).map(([name, build]) => {
	const args: unknown[] =
		(samples as Record<string, unknown[]>)[name] ?? (build.length === 0 ? [] : [ref]);
	return [name, (build as (...parameters: unknown[]) => Route)(...args)];
});

/** A next step in n8n's guideline sense: the description tells the user what to do. */
const nextStep = /\b(check|use|run|create|set|wait|try|fix|take|link|give|point)\b/i;

describe('every route carries what its failures mean', () => {
	test.each(everyRoute)(
		'%s: a route that changes something says what to check when its outcome is unknown',
		(_name, route) => {
			const unknown = route.failures.outcomeMayBeUnknown;
			if (route.method === 'GET') {
				// A read is sent again after a lost answer; it never has an outcome to doubt.
				expect(unknown).toBeUndefined();
				return;
			}
			expect(unknown).toBeDefined();
			expect(unknown!.lostMessage('socket hang up')).toContain('socket hang up');
			for (const text of [
				unknown!.lostDescription,
				unknown!.failedDescription,
				unknown!.checkFirst,
			])
				expect(text).toMatch(nextStep);
			// What to check names the operation that shows whether the service acted.
			expect(unknown!.checkFirst).toMatch(/Job > Get/);
			expect(unknown!.failedTitle).not.toBe('');
		},
	);

	test.each(everyRoute)(
		'%s: each refusal of its own has a title and names a next step',
		(_name, route) => {
			for (const [status, explanation] of Object.entries(route.failures.statuses ?? {})) {
				expect([403, 409, 410]).toContain(Number(status));
				expect(explanation.title).not.toBe('');
				expect(explanation.description).toMatch(nextStep);
			}
			if (route.failures.rejectedAlso !== undefined)
				expect(route.failures.rejectedAlso).toMatch(/^ \S/);
		},
	);

	test('each route has an action of its own, so pacing and advice never mix two routes', () => {
		const actions = everyRoute.map(([, route]) => route.action);
		expect(new Set(actions).size).toBe(actions.length);
	});

	test("the spec's route-specific refusals are where the spec puts them (409 retry and unlock; 410 retry)", () => {
		expect(routes.retryJob(ref).failures.statuses?.[409]?.title).toBe("The job can't be retried");
		expect(routes.retryJob(ref).failures.statuses?.[410]?.title).toBe(
			"The job's source file has expired",
		);
		expect(routes.unlockJob(ref).failures.statuses?.[409]?.title).toBe(
			"The job can't be unlocked yet",
		);
		expect(routes.unlockJob(ref).failures.rejectedAlso).toMatch(/Account > Get Usage/);
		expect(routes.getJob(ref).failures).toEqual({});
	});
});

describe('every route says what it carries, so the transport never guesses it from the action', () => {
	test('only Create uploads files, and it is a POST: it alone gets the upload time limit', () => {
		const uploading = everyRoute.filter(([, route]) => route.carriesUpload).map(([name]) => name);
		expect(uploading).toEqual(['createJobs']);
		expect(routes.createJobs().method).toBe('POST');
	});

	test('only a signed file link may be followed to another origin, and it is a GET', () => {
		const signed = everyRoute.filter(([, route]) => route.signedFileLink).map(([name]) => name);
		expect(signed).toEqual(['signedFile']);
		expect(routes.signedFile(samples.signedFile[0]).method).toBe('GET');
	});
});
