/**
 * The example workflows as the scripts and suites name them, and as a user imports them: on the newest
 * versions of the nodes, with only the parameters those versions show, reading only fields they return.
 */
import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { runReportFields, simplifiedJobFields } from '../../nodes/Embroidery/helpers/simplify';
import { listFormats } from '../../sandbox/engine';
import { withAllowedFolder } from '../../scripts/demo';
import { exampleIds, readExamples, type Example } from '../../scripts/examples';
import type { WorkflowNode } from '../../scripts/n8n-data';
import { action, isCollection, isOption, trigger } from './support/descriptionCopy';

type ExampleNode = WorkflowNode;
/** n8n's connections: per source node and output type, each output's list of targets. */
type Connections = Record<string, { main?: Array<Array<{ node: string }> | null> }>;

// n8n's loader puts Poll Times before a polling node's own properties; the module holds only those constants.
const { commonPollingParameters } = require('n8n-core/dist/nodes-loader/constants') as {
	commonPollingParameters: INodeProperties[];
};

/** The package's node types as the examples name them, with the properties n8n loads for them. */
const ourNodes = new Map<string, INodeTypeDescription>(
	[action, trigger].map((description) => [
		`n8n-nodes-embroidery.${description.name}`,
		description.polling
			? { ...description, properties: [...commonPollingParameters, ...description.properties] }
			: description,
	]),
);

function newest(node: INodeTypeDescription): number {
	return Math.max(...(Array.isArray(node.version) ? node.version : [node.version]));
}

/** Every node of ours in every example, with where it is. */
async function ourExampleNodes(): Promise<
	Array<{ where: string; node: ExampleNode; description: INodeTypeDescription }>
> {
	return (await readExamples()).flatMap(({ slug, workflow }) =>
		workflow.nodes.flatMap((node) => {
			const description = ourNodes.get(node.type);
			return description ? [{ where: `${slug} > ${node.name}`, node, description }] : [];
		}),
	);
}

/** The parameter names a node sets that no property of its version shows for its values, and unknown options. */
function staleParameters(node: ExampleNode, description: INodeTypeDescription): string[] {
	const instance = { typeVersion: node.typeVersion } as Pick<INode, 'typeVersion'>;
	// What decides what the editor shows: the values set, and the defaults of those not set.
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters as INodeParameters,
		true,
		false,
		instance,
		description,
	)!;
	const shown = (property: INodeProperties) =>
		NodeHelpers.displayParameter(values, property, instance, description);
	return Object.entries(node.parameters).flatMap(([name, value]): string[] => {
		const properties = description.properties.filter(
			(property) => property.name === name && shown(property),
		);
		if (properties.length === 0) return [name];
		const collection = properties.find((property) => property.type === 'collection');
		if (!collection || typeof value !== 'object' || value === null) return [];
		const offered = new Set(
			(collection.options ?? [])
				.filter((option) => !isOption(option) && !isCollection(option))
				.map((option) => option.name),
		);
		return Object.keys(value)
			.filter((key) => !offered.has(key))
			.map((key) => `${name}.${key}`);
	});
}

/** Whether a node of ours hands on jobs in Simplify's ten fields (from action version 3 and trigger 1.2). */
function simplifiesJobs(node: ExampleNode): boolean {
	const parameters = node.parameters;
	if (parameters.simplify === false) return false;
	if (node.type === 'n8n-nodes-embroidery.embroideryTrigger') return node.typeVersion >= 1.2;
	if (node.type !== 'n8n-nodes-embroidery.embroidery' || node.typeVersion < 3) return false;
	if (parameters.resource !== 'job') return false;
	const operation = String(parameters.operation);
	if (['get', 'getMany', 'unlock', 'waitForCompletion'].includes(operation)) return true;
	return operation === 'create' && parameters.waitForCompletion === true;
}

/** n8n's nodes that hand each item on as it came, or with fields added (Set keeping the other fields). */
function passesItemsOn(node: ExampleNode): boolean {
	if (node.type === 'n8n-nodes-base.set') return node.parameters.includeOtherFields === true;
	return [
		'n8n-nodes-base.if',
		'n8n-nodes-base.switch',
		'n8n-nodes-base.filter',
		'n8n-nodes-base.noOp',
		'n8n-nodes-base.removeDuplicates',
	].includes(node.type);
}

/** The names a Set node assigns. */
function assignedNames(node: ExampleNode): string[] {
	if (node.type !== 'n8n-nodes-base.set') return [];
	const assignments = (node.parameters.assignments as { assignments?: Array<{ name: string }> })
		?.assignments;
	return (assignments ?? []).map((assignment) => assignment.name);
}

/** Every string in a node's parameters. */
function texts(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(texts);
	if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(texts);
	return [];
}

function fieldsRead(text: string, pattern: RegExp): string[] {
	return [...text.matchAll(pattern)].map((match) => match[1]);
}

/**
 * The job fields the example's nodes read from an item of ours that Simplify shaped, which Simplify does not
 * return: `$json.x` in the nodes its items reach (through nodes that hand them on), `$('Name').item.json.x`
 * anywhere.
 */
function fieldsSimplifyDropsOf({ slug, workflow }: Example): string[] {
	const byName = new Map(workflow.nodes.map((node) => [node.name, node]));
	const returned = new Set<string>([...simplifiedJobFields, ...runReportFields]);
	const connections = workflow.connections as Connections;
	const next = (name: string) =>
		(connections[name]?.main ?? []).flatMap((output) => output ?? []).map(({ node }) => node);
	const missing: string[] = [];
	for (const source of workflow.nodes.filter(simplifiesJobs)) {
		const reached = new Map<string, Set<string>>();
		const visit = (name: string, added: Set<string>) => {
			if (reached.has(name)) return;
			reached.set(name, added);
			const node = byName.get(name)!;
			if (!passesItemsOn(node)) return;
			const more = new Set([...added, ...assignedNames(node)]);
			for (const following of next(name)) visit(following, more);
		};
		for (const following of next(source.name)) visit(following, new Set());
		for (const [name, added] of reached) {
			for (const field of texts(byName.get(name)!.parameters).flatMap((text) =>
				fieldsRead(text, /\$json\.([A-Za-z_$][\w$]*)/g),
			))
				if (!returned.has(field) && !added.has(field))
					missing.push(`${slug} > ${name} reads $json.${field} from ${source.name}`);
		}
		const quotedName = source.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		const byReference = new RegExp(
			`\\$\\(['"]${quotedName}['"]\\)\\.(?:item|first\\(\\)|last\\(\\))\\.json\\.([A-Za-z_$][\\w$]*)`,
			'g',
		);
		for (const node of workflow.nodes)
			for (const field of texts(node.parameters).flatMap((text) => fieldsRead(text, byReference)))
				if (!returned.has(field))
					missing.push(`${slug} > ${node.name} reads ${field} of ${source.name}`);
	}
	return missing;
}

describe('examples/', () => {
	it(
		'holds one workflow per id the scripts and suites use, each id short enough for n8n 1.x to ' +
			'keep poll state',
		async () => {
			const ids = (await readExamples()).map((example) => example.workflow.id);
			expect([...ids].sort()).toEqual(Object.values(exampleIds).sort());
			for (const id of ids) expect(id.length).toBeLessThanOrEqual(16);
		},
	);

	it('uses the newest version of the Embroidery node and of the Embroidery Trigger everywhere', async () => {
		const nodes = await ourExampleNodes();
		// Both node types are there, so the check below has something to check.
		expect(new Set(nodes.map(({ node }) => node.type))).toEqual(new Set(ourNodes.keys()));
		const versions = nodes.map(({ where, node }) => `${where}: ${node.typeVersion}`);
		const newestVersions = nodes.map(
			({ where, description }) => `${where}: ${newest(description)}`,
		);
		expect(versions).toEqual(newestVersions);
	});

	it("sets on each node of ours only parameters and options its version's editor shows", async () => {
		const stale = (await ourExampleNodes()).flatMap(({ where, node, description }) =>
			staleParameters(node, description).map((name) => `${where}: ${name}`),
		);
		expect(stale).toEqual([]);
	});

	it('reads from the jobs Simplify hands on only the fields Simplify returns', async () => {
		const examples = await readExamples();
		// The trigger example and the shop flows hand simplified jobs on; the check reads their expressions.
		expect(
			examples.filter(({ workflow }) => workflow.nodes.some(simplifiesJobs)).length,
		).toBeGreaterThan(0);
		expect(examples.flatMap(fieldsSimplifyDropsOf)).toEqual([]);
	});

	it('name, as npm start imports them, the one folder that npm start lets n8n read and write', async () => {
		const folder = '/home/someone/.cache/n8n-nodes-embroidery/local/files';
		const notes = (await readExamples())
			.map(({ workflow }) => withAllowedFolder(workflow, folder))
			.flatMap((workflow) => workflow.nodes)
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => String(node.parameters.content));
		const naming = notes.filter((note) => note.includes('N8N_RESTRICT_FILE_ACCESS_TO'));
		expect(naming.length).toBeGreaterThan(0);
		for (const note of naming) {
			expect(note).toContain(`(here \`${folder}\`)`);
			expect(note).not.toContain('~/.n8n-files');
		}
	});
	it('lists in the notes of the convert and digitise examples every format the service writes', async () => {
		const writable = listFormats()
			.filter((format) => format.writable)
			.map((format) => format.format.toLowerCase());
		expect(writable.length).toBe(11);
		const notes = (await readExamples())
			.filter(({ slug }) => ['convert-embroidery-file', 'digitise-artwork'].includes(slug))
			.map(({ slug, workflow }) => ({
				slug,
				note: workflow.nodes
					.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
					.map((node) => String(node.parameters.content))
					.join('\n'),
			}));
		expect(notes.map(({ slug }) => slug)).toEqual(['convert-embroidery-file', 'digitise-artwork']);
		for (const { slug, note } of notes) {
			const listed = /output format \(([^)]*)\)/.exec(note)?.[1].split(', ') ?? [];
			expect({ slug, listed: [...listed].sort() }).toEqual({ slug, listed: [...writable].sort() });
		}
	});

	it('spend credits only on jobs they create: a workflow the Embroidery Trigger starts unlocks nothing', async () => {
		const unlocking = (node: ExampleNode) =>
			node.type === 'n8n-nodes-embroidery.embroidery' &&
			(node.parameters.operation === 'unlock' || node.parameters.unlockBeforeDownload === true);
		const triggered = (await readExamples()).filter(({ workflow }) =>
			workflow.nodes.some((node) => node.type === 'n8n-nodes-embroidery.embroideryTrigger'),
		);
		expect(triggered.length).toBeGreaterThan(0);
		const unlocks = triggered.flatMap(({ slug, workflow }) =>
			workflow.nodes.filter(unlocking).map((node) => `${slug} > ${node.name}`),
		);
		expect(unlocks).toEqual([]);
		// Every other Unlock acts on a job its own workflow created.
		for (const { slug, workflow } of await readExamples()) {
			if (!workflow.nodes.some(unlocking)) continue;
			const creates = workflow.nodes.some(
				(node) =>
					node.type === 'n8n-nodes-embroidery.embroidery' && node.parameters.operation === 'create',
			);
			expect({ slug, creates }).toEqual({ slug, creates: true });
		}
	});

	it(
		'has a digitise example of its own, and the machine-file downloads after a digitising job ' +
			'include the preview',
		async () => {
			const examples = await readExamples();
			const digitise = examples.find(({ workflow }) => workflow.id === exampleIds.digitising)!;
			expect(digitise.slug).toBe('digitise-artwork');
			const create = digitise.workflow.nodes.find(
				(node) =>
					node.type === 'n8n-nodes-embroidery.embroidery' && node.parameters.operation === 'create',
			)!;
			expect(create.parameters).toMatchObject({ workflow: 'digitising' });
			expect(
				digitise.workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger'),
			).toBe(true);
			const downloads = examples
				.filter(({ slug }) => ['digitise-artwork', 'shop-order-to-machine-file'].includes(slug))
				.flatMap(({ slug, workflow }) =>
					workflow.nodes
						.filter(
							(node) =>
								node.type === 'n8n-nodes-embroidery.embroidery' &&
								node.parameters.operation === 'download',
						)
						.map((node) => ({ slug, files: node.parameters.files })),
				);
			expect(downloads).toEqual([
				{ slug: 'digitise-artwork', files: ['outputs', 'preview'] },
				{ slug: 'shop-order-to-machine-file', files: ['outputs', 'preview'] },
			]);
		},
	);
});
