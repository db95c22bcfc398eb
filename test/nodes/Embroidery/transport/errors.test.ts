/**
 * n8n's UX guidelines on error messages (ux-guidelines.md, points 38 and 40-44), checked on the node's own
 * wording: every message about an item ends with `[item N]`, parameter names are in single quotes, the
 * description says what to do next, and neither uses "error", "problem", "failure" or "mistake". The
 * transport's wording is read with a marker where the service's own text goes (that text is passed through
 * as the service wrote it); the node's checks are driven through n8n's real execution against the sandbox.
 */
import type { IDataObject, INode, INodeParameters, INodeProperties } from 'n8n-workflow';

import { EmbroideryApi } from '../../../../credentials/EmbroideryApi.credentials';
import {
	networkError,
	redirectRefusedError,
	redirectedPostError,
	unexpectedResponseError,
} from '../../../../nodes/Embroidery/transport/errors';
import { explain } from '../../../../nodes/Embroidery/transport/explanations';
import { unlockUnknownAdvice } from '../../../../nodes/Embroidery/transport/nextSteps';
import { routes } from '../../../../nodes/Embroidery/transport/routes';
import type { FailedRequest } from '../../../../nodes/Embroidery/transport/routes';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import { embroideryItem, run } from '../../support/nodeItems';
import { useWorkerSandbox } from '../../../support/sandboxFixture';
import { bannedWords, namesNextStep, operationPath } from '../../support/wording';

type EmbroideryNodeModule = typeof import('../../../../nodes/Embroidery/Embroidery.node');
const { Embroidery } =
	require('../../../../nodes/Embroidery/Embroidery.node.ts') as EmbroideryNodeModule;

jest.setTimeout(120_000);

/** Where the service's or the socket's own words go: passed through, not ours to word. */
const theirs = 'THEIR-WORDS';

function displayNames(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		property.displayName,
		...(property.options ?? []).flatMap((option) =>
			'displayName' in option ? displayNames([option as INodeProperties]) : [],
		),
	]);
}

/** Parameter names of more than one word: a single word ("Job", "Files") also reads as plain prose. */
const parameterNames = [
	...new Set([
		...displayNames(new Embroidery().description.properties),
		...displayNames(new EmbroideryApi().properties),
	]),
].filter((name) => name.includes(' ') && !name.startsWith('Unlocking spends'));

interface Said {
	where: string;
	message: string;
	description: string;
}

/** What breaks the guidelines in one message and its description, our wording only. */
function breaches({ where, message, description }: Said): string[] {
	const found: string[] = [];
	for (const [part, text] of [
		['message', message],
		['description', description],
	] as const) {
		// "Job > Wait for Completion" names a resource and operation, the path a user follows, not a parameter.
		const ours = text.split(theirs).join(' ').replace(operationPath, ' ');
		const word = bannedWords.exec(ours);
		if (word) found.push(`${where}: ${part} says "${word[0]}": ${text}`);
		const unquoted = ours.replace(/(?<![\p{L}\d])'[^']+'(?![\p{L}\d])/gu, ' ');
		for (const name of parameterNames)
			if (unquoted.includes(name)) found.push(`${where}: ${part} names ${name} unquoted: ${text}`);
	}
	if (!namesNextStep(description)) {
		found.push(`${where}: description names no next step: "${description}"`);
	}
	return found;
}

const node: INode = {
	id: 'errors-test',
	name: 'Embroidery',
	type: 'n8n-nodes-embroidery.embroidery',
	typeVersion: 3,
	position: [0, 0],
	parameters: {},
};

function failedRequest(
	route: Omit<FailedRequest, 'attempts' | 'itemIndex'>,
	extra: Partial<FailedRequest> = {},
): FailedRequest {
	return { ...route, attempts: 3, itemIndex: 0, ...extra };
}

/** Every answer the transport explains, for each kind of request it treats apart. */
function transportWording(): Said[] {
	const jobRoute = routes.getJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' });
	const unlock = routes.unlockJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' });
	const retry = routes.retryJob({ id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' });
	const create = routes.createJobs();
	const file = routes.signedFile(new URL('http://127.0.0.1:9/uploads/conversion/out.dst'));
	const said: Said[] = [];
	for (const status of [400, 401, 403, 404, 409, 410, 422, 429, 500, 503]) {
		for (const [name, route] of Object.entries({ get: jobRoute, unlock, retry, create, file })) {
			for (const extra of [{}, { retryAfterSeconds: 120 }]) {
				const { message, description } = explain(status, failedRequest(route, extra), theirs, {});
				said.push({ where: `HTTP ${status} to ${name}`, message, description });
			}
		}
	}
	for (const [name, route] of Object.entries({ get: jobRoute, unlock, create })) {
		const lost = networkError(node, new Error(theirs), failedRequest(route), []);
		said.push({
			where: `no answer to ${name}`,
			message: lost.message,
			description: lost.description ?? '',
		});
		const refused = redirectRefusedError(node, route, 'https://elsewhere.example', theirs);
		said.push({
			where: `redirect of ${name} refused`,
			message: refused.message,
			description: refused.description ?? '',
		});
		const post = redirectedPostError(node, route, new URL('https://elsewhere.example/x'), 307);
		said.push({
			where: `redirected ${name}`,
			message: post.message,
			description: post.description ?? '',
		});
		const odd = unexpectedResponseError(node, 200, theirs, failedRequest(route));
		said.push({
			where: `odd answer to ${name}`,
			message: odd.message,
			description: odd.description ?? '',
		});
	}
	said.push({
		where: 'unlock unknown',
		message: 'Unlock state unknown',
		description: unlockUnknownAdvice,
	});
	return said;
}

const env = useWorkerSandbox();
const v3 = { typeVersion: 3, onError: 'continueRegularOutput' as const };
const unknownJob = { __rl: true, mode: 'id', value: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7' };

/** Failures the node finds itself or hears from the service, each on two items, with Continue On Fail. */
const failures: Array<{ where: string; parameters: INodeParameters; input?: 'files' }> = [
	{
		where: 'Create without the binary field',
		parameters: {
			resource: 'job',
			operation: 'create',
			workflow: 'conversion',
			binaryPropertyName: 'nothing',
			format: 'exp',
		},
		input: 'files',
	},
	{
		where: 'Create without an output format',
		parameters: {
			resource: 'job',
			operation: 'create',
			workflow: 'conversion',
			binaryPropertyName: 'data',
			format: '={{ "" }}',
		},
		input: 'files',
	},
	{
		where: 'Create with a width out of range',
		parameters: {
			resource: 'job',
			operation: 'create',
			workflow: 'digitising',
			binaryPropertyName: 'data',
			format: 'dst',
			widthMm: 0,
			colourCount: 3,
		},
		input: 'files',
	},
	{
		where: 'Create from an empty URL',
		parameters: {
			resource: 'job',
			operation: 'create',
			workflow: 'conversion',
			source: 'url',
			sourceUrl: '={{ "" }}',
			format: 'exp',
		},
	},
	{
		where: 'Job > Download of no files',
		parameters: {
			resource: 'job',
			operation: 'download',
			jobId: unknownJob,
			workflow: 'conversion',
			files: '={{ [] }}',
		},
	},
	{
		where: 'File > Download of no link',
		parameters: {
			resource: 'file',
			operation: 'download',
			url: '={{ "" }}',
			binaryPropertyName: 'data',
		},
	},
	{
		where: 'File > Download of a bad link',
		parameters: {
			resource: 'file',
			operation: 'download',
			url: 'not a link',
			binaryPropertyName: 'data',
		},
	},
	{
		where: 'Get of a malformed ID',
		parameters: {
			resource: 'job',
			operation: 'get',
			jobId: { __rl: true, mode: 'id', value: '={{ "nope" }}' },
		},
	},
	{
		where: 'Get of an unknown job',
		parameters: { resource: 'job', operation: 'get', jobId: unknownJob, workflow: 'conversion' },
	},
	{
		where: 'Unlock of an unknown job',
		parameters: { resource: 'job', operation: 'unlock', jobId: unknownJob, workflow: 'conversion' },
	},
	{
		where: 'Retry of an unknown job',
		parameters: { resource: 'job', operation: 'retry', jobId: unknownJob, workflow: 'conversion' },
	},
	{
		where: 'Wait for an unknown job',
		parameters: {
			resource: 'job',
			operation: 'waitForCompletion',
			jobId: unknownJob,
			workflow: 'conversion',
			timeout: 5,
		},
	},
];

async function nodeWording(
	credentials: ApiCredentials,
): Promise<Array<Said & { tagged: boolean }>> {
	const said: Array<Said & { tagged: boolean }> = [];
	for (const failure of failures) {
		const input =
			failure.input === 'files'
				? [embroideryItem('Star.pes'), embroideryItem('Star.JEF')]
				: [{}, {}];
		const result = await run(credentials, failure.parameters, input, v3);
		if (result.error) throw new Error(`${failure.where}: the run stopped: ${result.error.message}`);
		const failed = result.items.filter((item) => typeof item.json.error === 'string');
		expect({ where: failure.where, failedItems: failed.length }).toEqual({
			where: failure.where,
			failedItems: 2,
		});
		for (const item of failed) {
			const index = (item.pairedItem as { item: number }).item;
			const json = item.json as IDataObject & { error: string };
			said.push({
				where: `${failure.where}, item ${index}`,
				message: json.error,
				description: String(json.description ?? ''),
				tagged:
					json.error.endsWith(` [item ${index}]`) && !/\[item \d+\].*\[item \d+\]/.test(json.error),
			});
		}
	}
	return said;
}

describe('error messages read as n8n asks', () => {
	test("the transport's own wording: no banned words, parameter names quoted, a next step in each description", () => {
		const problems = transportWording().flatMap(breaches);
		expect(problems.join('\n')).toBe('');
	});

	test("each failing item's message ends with [item N], and what the node says follows the same rules", async () => {
		const credentials = await env.credentials();
		const said = await nodeWording(credentials);
		expect(said.filter((one) => !one.tagged).map((one) => `${one.where}: ${one.message}`)).toEqual(
			[],
		);
		expect(said.flatMap(breaches).join('\n')).toBe('');
	});

	test('an error that ends the run names its item at the end too', async () => {
		const credentials = await env.credentials();
		const result = await run(
			credentials,
			{ resource: 'file', operation: 'download', url: '={{ "" }}', binaryPropertyName: 'data' },
			[{}],
			{ typeVersion: 3 },
		);
		expect(result.error?.message).toMatch(/ \[item 0\]$/);
	});

	test('File > Download without a link names the links version 3 hands out', async () => {
		const credentials = await env.credentials();
		const result = await run(
			credentials,
			{ resource: 'file', operation: 'download', url: '={{ "" }}', binaryPropertyName: 'data' },
			[{}],
			v3,
		);
		expect(String(result.items[0].json.description)).toMatch(/\boutputUrl\b.*\bpreviewUrl\b/);
	});
});
