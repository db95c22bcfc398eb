/**
 * The recipe of docs/architecture.md ("Adding an operation"), proved with Job > Get Status, a throwaway
 * operation written here as an operation module and put into the Job resource's table with one line: the
 * compiler accepts it (this file type-checks, and what is no operation does not), the description built from
 * the table by the node's own builders carries its selector entry, parameters, tool texts, Simplify and Output
 * and passes the description tests' rules, and the router built from the table runs it in n8n-core against the
 * sandbox.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import {
	jobFieldsToFill,
	jobLocatorFields,
	jobRefFields,
} from '../../../../nodes/Embroidery/actions/job/fields';
import { routerFor } from '../../../../nodes/Embroidery/actions/router';
import { nodeVersions, textForEachVersion } from '../../../../nodes/Embroidery/actions/types';
import type {
	EmbroideryOperation,
	NodeVersion,
	OperationOutput,
	ResourceTable,
} from '../../../../nodes/Embroidery/actions/types';
import { nodeProperties, resources } from '../../../../nodes/Embroidery/actions/versionDescription';
import { jobRefOf } from '../../../../nodes/Embroidery/helpers/jobLocator';
import { jobShaping, simplifiedJobFields } from '../../../../nodes/Embroidery/helpers/simplify';
import {
	JobResponseSchema,
	embroideryApiRequest,
	routes,
} from '../../../../nodes/Embroidery/transport';
import { isOption, listed, shownProperties } from '../../../package/support/descriptionCopy';
import {
	actionProblems,
	allOptionProblems,
	booleanProblems,
	ofKind,
	periodProblems,
	placeholderProblems,
	readNode,
	sentenceCaseProblems,
	titleCaseProblems,
	unquotedNameProblems,
	unsortedCollectionProblems,
	unsortedOptionProblems,
} from '../../../package/support/guidelines';
import { packageName, registerNodeType } from '../../../support/nodeTypes';
import { runNode } from '../../../support/nodeRun';
import {
	newCredentials,
	useVariantService,
	useWorkerSandbox,
} from '../../../support/sandboxFixture';
import { embroideryItem, itemsOf } from '../../support/nodeItems';

// Named with its extension: beside Embroidery.node.ts lies its codex Embroidery.node.json.
type EmbroideryNodeModule = typeof import('../../../../nodes/Embroidery/Embroidery.node');
const { Embroidery } =
	require('../../../../nodes/Embroidery/Embroidery.node.ts') as EmbroideryNodeModule;

/** Job > Get Status: the operation file of the recipe, written here. */
const getStatus = {
	option: { name: 'Get Status', description: "Get a job's status", action: 'Get job status' },
	description: [...jobRefFields, ...jobLocatorFields()],
	routesCalled: ['getJob', 'listJobs'],
	toolDescription: textForEachVersion(
		(version) => `Returns a job's status. Free. ${jobFieldsToFill(version)}`,
	),
	output: { shaping: jobShaping, fromVersion: 3 },
	async execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]> {
		const { ref } = await jobRefOf(this, itemIndex);
		const { job } = await embroideryApiRequest.call(this, {
			...routes.getJob(ref),
			schema: JobResponseSchema,
			itemIndex,
		});
		return [{ json: { ...job, id: job.id, workflow: ref.workflow } }];
	},
} satisfies EmbroideryOperation;

/** The recipe's one line: the Job resource's operations, Get Status among them. */
const table = {
	...resources,
	job: { ...resources.job, operations: { ...resources.job.operations, getStatus } },
} satisfies ResourceTable;

const name = 'embroideryWithGetStatus';
const description: INodeTypeDescription = {
	...new Embroidery().description,
	name,
	properties: nodeProperties(table),
};
const nodeType: INodeType = { description, execute: routerFor(table) };
registerNodeType(`${packageName}.${name}`, nodeType);

const getStatusValues = { resource: 'job', operation: 'getStatus' };

function jobSelector(properties: INodeProperties[]): INodeProperties | undefined {
	return properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === 'job',
	);
}

describe('the compiler checks the table', () => {
	test('an operation without a text for every node version, or a name not in the table, does not compile', () => {
		const twoVersions = { 1: 'Returns a job.', 2: 'Returns a job.' };
		// @ts-expect-error An operation without version 3's AI tool text is no operation.
		const incomplete: EmbroideryOperation = { ...getStatus, toolDescription: twoVersions };
		expect(incomplete.toolDescription[3]).toBeUndefined();
		// @ts-expect-error Job has no operation "notAnOperation" in this table.
		expect(table.job.operations.notAnOperation).toBeUndefined();
		expect(table.job.operations.getStatus).toBe(getStatus);
	});
});

describe('the description built from the table', () => {
	test('lists Get Status in the Job selector, by name, with its action', () => {
		const options = (jobSelector(description.properties)?.options ?? []).filter(isOption);
		// The table's Job operations and Get Status, sorted by name as the editor shows them.
		const names = [...Object.values(resources.job.operations), getStatus].map(
			(operation) => operation.option.name,
		);
		expect(options.map((option) => option.name)).toEqual(
			[...names].sort((a, b) => a.localeCompare(b)),
		);
		expect(options.map((option) => option.name)).toContain('Get Status');
		expect(options.find((option) => option.value === 'getStatus')).toEqual({
			name: 'Get Status',
			value: 'getStatus',
			description: "Get a job's status",
			action: 'Get job status',
		});
	});

	test('shows its parameters for it in each version, Simplify from version 3 and Output in the tool', () => {
		const names = (version: NodeVersion, tool = false) =>
			shownProperties(description, getStatusValues, version, tool).map((property) => property.name);
		expect(names(1)).toEqual(['resource', 'operation', 'jobId', 'workflow']);
		expect(names(2)).toEqual(['resource', 'operation', 'jobId', 'workflow']);
		expect(names(3)).toEqual(['resource', 'operation', 'jobId', 'workflow', 'simplify']);
		expect(names(3, true)).toEqual([
			'resource',
			'operation',
			'jobId',
			'workflow',
			'output',
			'toolDescription',
		]);
	});

	test('gives every operation one Description in the tool variant of each version, with its own text', () => {
		for (const version of nodeVersions) {
			for (const [resource, { operations }] of Object.entries(table)) {
				for (const [operation, module] of Object.entries(operations)) {
					const texts = shownProperties(description, { resource, operation }, version, true)
						.filter((property) => property.name === 'toolDescription')
						.map((property) => property.default);
					expect({ resource, operation, version, texts }).toEqual({
						resource,
						operation,
						version,
						texts: [module.toolDescription[version]],
					});
				}
			}
		}
	});

	test("passes the description tests' rules", () => {
		const { properties, copy } = readNode(description);
		const problems = [
			...actionProblems(copy),
			...placeholderProblems(copy),
			...booleanProblems(properties),
			...titleCaseProblems(ofKind(copy, 'label', 'dropdownTitle')),
			...sentenceCaseProblems(ofKind(copy, 'tooltip', 'hint', 'infoBox', 'dropdownDescription')),
			...periodProblems(copy),
			...unquotedNameProblems(properties, copy),
			...unsortedOptionProblems(properties),
			...unsortedCollectionProblems(properties),
			...allOptionProblems(copy),
		];
		expect(listed(problems)).toBe('');
		// The rules read Get Status's entry: one with an article would be named.
		const careless = {
			...getStatus,
			option: { ...getStatus.option, action: 'Get the job status' },
		};
		const withCareless = nodeProperties({
			...table,
			job: { ...table.job, operations: { ...table.job.operations, getStatus: careless } },
		});
		expect(actionProblems(readNode({ displayName: name, properties: withCareless }).copy)).toEqual([
			`${name} > operation = getStatus: "Get the job status" has an article`,
		]);
	});

	test('leaves the other operations as they were', () => {
		// What Get Status adds: its selector entry, its parameters, its name on the shared Simplify and Output.
		const withoutGetStatus = (property: INodeProperties): INodeProperties => {
			const show = property.displayOptions?.show ?? {};
			const options = (property.options ?? []).filter(
				(option) => !isOption(option) || option.value !== 'getStatus',
			);
			const operations = show.operation?.filter((operation) => operation !== 'getStatus');
			return {
				...property,
				...(property.options ? { options } : {}),
				...(show.operation ? { displayOptions: { show: { ...show, operation: operations } } } : {}),
			};
		};
		const others = description.properties
			.map(withoutGetStatus)
			.filter((property) => property.displayOptions?.show?.operation?.length !== 0);
		expect(others).toEqual(nodeProperties(resources));
	});
});

describe('the router built from the table', () => {
	const { sandbox, admin } = useWorkerSandbox();
	const variant = useVariantService(sandbox);

	test('runs Get Status in n8n-core: one GET of the job, Simplify from version 3, raw with Simplify off', async () => {
		const credentials = await newCredentials(admin, variant.baseUrl);
		const [created] = itemsOf(
			await runNode({
				credentials,
				parameters: {
					resource: 'job',
					operation: 'create',
					workflow: 'conversion',
					binaryPropertyName: 'data',
					format: 'exp',
				},
				input: [embroideryItem('Star.pes')],
			}),
		);
		const jobId = { __rl: true, mode: 'id', value: String(created.json.id) };
		const getStatusOf = async (extra: Record<string, unknown>): Promise<INodeExecutionData> => {
			const [item] = itemsOf(
				await runNode({
					credentials,
					parameters: { ...getStatusValues, jobId, workflow: 'conversion', ...extra },
					input: [{}],
					nodeType: `${packageName}.${name}`,
					typeVersion: 3,
				}),
			);
			return item;
		};
		variant.reset();
		const simplified = await getStatusOf({});
		expect(variant.of('GET /jobs/conversion/{id}')).toHaveLength(1);
		expect(Object.keys(simplified.json)).toEqual([...simplifiedJobFields]);
		expect(simplified.json).toMatchObject({ id: created.json.id, workflow: 'conversion' });
		expect(simplified.pairedItem).toEqual({ item: 0 });
		const raw = await getStatusOf({ simplify: false });
		expect(raw.json).toMatchObject({ id: created.json.id, outputs: expect.any(Array) });
	});
});
