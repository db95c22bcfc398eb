/**
 * explain() and the transport's errors read what the failed route says its failures mean (routes.ts), never
 * its action's name: a route renamed keeps its advice, and advice moved to another route moves its wording.
 */
import type { INode } from 'n8n-workflow';

import { networkError, redirectedPostError } from '../../../../nodes/Embroidery/transport/errors';
import { explain } from '../../../../nodes/Embroidery/transport/explanations';
import { routes } from '../../../../nodes/Embroidery/transport/routes';
import type { JobRef } from '../../../../nodes/Embroidery/transport/jobIds';
import type {
	FailedRequest,
	RequestAction,
	Route,
} from '../../../../nodes/Embroidery/transport/routes';

const ref: JobRef = { id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'digitising' };
const node: INode = {
	id: 'explanations-test',
	name: 'Embroidery',
	type: 'n8n-nodes-embroidery.embroidery',
	typeVersion: 3,
	position: [0, 0],
	parameters: {},
};
const statuses = [400, 401, 403, 404, 409, 410, 422, 429, 500, 503];
const body = { message: 'The given data was invalid.', errors: { format: ['must differ'] } };

function failed(route: Route): FailedRequest {
	return { ...route, attempts: 3, itemIndex: 0 };
}

/** Every way the transport words a failure of one request. */
function wordingOf(route: Route) {
	return {
		answers: statuses.map((status) => explain(status, failed(route), 'THEIR-WORDS', body)),
		lost: networkError(node, new Error('socket hang up'), failed(route), []).description,
		redirected: redirectedPostError(node, route, new URL('http://127.0.0.1:9/x'), 307).description,
	};
}

const withOwnAdvice = {
	createJobs: routes.createJobs(),
	retryJob: routes.retryJob(ref),
	unlockJob: routes.unlockJob(ref),
	downloadFile: routes.signedFile(new URL('http://127.0.0.1:9/uploads/digitising/x/out.dst')),
};

describe("a failure is explained from the route's advice, not its action's name", () => {
	test.each(Object.entries(withOwnAdvice))(
		'%s under another action name says the same',
		(_name, route) => {
			const others: RequestAction[] = ['listFormats', 'getJob', 'listJobs'];
			for (const action of others)
				expect(wordingOf({ ...route, action })).toEqual(wordingOf(route));
		},
	);

	test.each(Object.entries(withOwnAdvice))(
		"%s's advice given to a plain read says what it says on its own route",
		(_name, route) => {
			const read = routes.getJob(ref);
			const borrowed: Route = { ...read, method: route.method, failures: route.failures };
			expect(wordingOf(borrowed).answers).toEqual(
				wordingOf({ ...route, path: read.path, ability: read.ability }).answers,
			);
			expect(wordingOf(borrowed).lost).toBe(wordingOf(route).lost);
		},
	);

	test('a route with no advice of its own gets the general wording, whatever its action', () => {
		const read = routes.getJob(ref);
		expect(explain(409, failed(read), 'Conflict', {})).toEqual({
			message: 'Request failed: Conflict',
			description:
				"The service answered HTTP 409. Check this item's parameters, and that the credential's " +
				"'Base URL' points to the v1 API.",
		});
		expect(explain(410, failed(read), 'Gone', {}).message).toBe('The file has expired: Gone');
		expect(explain(403, failed(read), 'No', {}).description).toContain('"jobs:read" ability');
	});

	test("an unlock's 422 adds what unlocking needs after the fields to fix", () => {
		const { description } = explain(422, failed(routes.unlockJob(ref)), 'Invalid', body);
		expect(description).toBe(
			'Fix these fields: format: must differ. Unlocking needs a subscription entitlement or enough ' +
				'credits on the account (see Account > Get Usage).',
		);
	});
});
