/**
 * n8n's UX guidelines (ux-guidelines.md, node-ui-design.md), the rules a machine can check, read off the
 * node descriptions as n8n loads them: every property of every version, nested collections and options,
 * resource locator modes, the credentials, and the AI tool variant n8n derives from a node that is usable
 * as a tool (same properties, its name ending in "Tool"). docs/verification.md says where every other point
 * of the two pages is met, and argues each deviation this test lists as argued.
 */
import { NodeHelpers } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { EmbroideryApi } from '../../credentials/EmbroideryApi.credentials';
import { simplifyJob } from '../../nodes/Embroidery/helpers/simplify';

// Named with their extension: beside each X.node.ts lies its codex X.node.json, which the resolver would pick.
const { Embroidery } =
	require('../../nodes/Embroidery/Embroidery.node.ts') as typeof import('../../nodes/Embroidery/Embroidery.node');
type TriggerNode = typeof import('../../nodes/Embroidery/EmbroideryTrigger.node');
const { EmbroideryTrigger } =
	require('../../nodes/Embroidery/EmbroideryTrigger.node.ts') as TriggerNode;

const action = new Embroidery().description;
const trigger = new EmbroideryTrigger().description;
const credentials = new EmbroideryApi();
const nodes = [action, trigger];

/** One piece of text the user reads, with where it is and how the guidelines say it must read. */
interface Copy {
	where: string;
	kind:
		| 'label'
		| 'dropdownTitle'
		| 'tooltip'
		| 'hint'
		| 'infoBox'
		| 'dropdownDescription'
		| 'action'
		| 'placeholder';
	text: string;
	property: INodeProperties;
}

function isOption(value: unknown): value is INodePropertyOptions {
	return typeof value === 'object' && value !== null && 'value' in value && 'name' in value;
}

function isCollection(value: unknown): value is INodePropertyCollection {
	return typeof value === 'object' && value !== null && 'values' in value;
}

/** Every property, nested ones included (collection options, fixed collection values), each with its path. */
function allProperties(
	properties: INodeProperties[],
	path: string,
): Array<{ property: INodeProperties; where: string }> {
	return properties.flatMap((property) => {
		const where = `${path} > ${property.name}`;
		const nested = (property.options ?? []).flatMap(
			(option): Array<{ property: INodeProperties; where: string }> => {
				if (isCollection(option)) return allProperties(option.values, `${where} > ${option.name}`);
				if (isOption(option)) return [];
				return allProperties([option as INodeProperties], where);
			},
		);
		return [{ property, where }, ...nested];
	});
}

function copyOf(property: INodeProperties, where: string): Copy[] {
	const copies: Copy[] = [];
	const add = (kind: Copy['kind'], text: unknown, at = where) => {
		if (typeof text === 'string' && text !== '') copies.push({ where: at, kind, text, property });
	};
	if (property.type === 'notice') add('infoBox', property.displayName);
	else add('label', property.displayName);
	add('tooltip', property.description);
	add('hint', property.hint);
	if (property.type !== 'collection' && property.type !== 'fixedCollection')
		add('placeholder', property.placeholder);
	for (const option of property.options ?? []) {
		if (!isOption(option)) continue;
		add('dropdownTitle', option.name, `${where} = ${String(option.value)}`);
		add('dropdownDescription', option.description, `${where} = ${String(option.value)}`);
		add('action', option.action, `${where} = ${String(option.value)}`);
	}
	for (const mode of property.modes ?? []) {
		add('label', mode.displayName, `${where} (mode ${mode.name})`);
		add('hint', mode.hint, `${where} (mode ${mode.name})`);
		// A list mode's placeholder is the search box's prompt, not an example of a value.
		if (mode.type !== 'list') add('placeholder', mode.placeholder, `${where} (mode ${mode.name})`);
	}
	return copies;
}

const propertiesByNode = [
	...nodes.map((node) => ({
		name: node.displayName,
		properties: allProperties(node.properties, node.displayName),
	})),
	{
		name: credentials.displayName,
		properties: allProperties(credentials.properties, credentials.displayName),
	},
];
const allCopy: Copy[] = propertiesByNode.flatMap(({ properties }) =>
	properties.flatMap(({ property, where }) => copyOf(property, where)),
);
/** The tool variant's Description fields hold what a model is told, not interface copy. */
const interfaceCopy = allCopy.filter((copy) => copy.property.name !== 'toolDescription');

const articles = /\b(a|an|the)\b/i;
/** Words Title Case leaves in lower case. */
const smallWords = new Set([
	'a',
	'an',
	'the',
	'and',
	'but',
	'or',
	'nor',
	'for',
	'on',
	'at',
	'to',
	'from',
	'by',
	'of',
	'in',
	'per',
	'with',
	'as',
	'into',
	'vs',
]);
/** Names that keep their capitals inside a sentence: products and file types. */
const properNouns = new Set(['WebP', 'Embroidery']);

/** Text outside quotes and links: what the casing rules read (a quoted parameter name keeps its Title Case). */
function unquoted(text: string): string {
	return text
		.replace(/<a [^>]*>[^<]*<\/a>/g, ' ')
		.replace(/(?<![\p{L}\d])'[^']+'(?![\p{L}\d])/gu, ' ')
		.replace(/"[^"]*"/g, ' ');
}

function sentencesOf(text: string): string[] {
	return unquoted(text)
		.split(/(?<=[.!?])\s+/)
		.map((sentence) => sentence.trim())
		.filter((sentence) => sentence !== '');
}

function isTitleCase(text: string): boolean {
	const words = text.split(/\s+/).map((word) => word.replace(/^[("'(]+|[)"',:]+$/g, ''));
	return words.every((word, index) => {
		if (word === '' || !/^\p{L}/u.test(word)) return true;
		if (index > 0 && smallWords.has(word)) return true;
		return /^\p{Lu}/u.test(word);
	});
}

/** Sentence case: each sentence starts with a capital, and inside it only acronyms and proper nouns do. */
function sentenceCaseProblem(text: string): string | undefined {
	const first = text.replace(/^['"(]+/, '');
	if (/^\p{Ll}/u.test(first)) return 'starts in lower case';
	for (const sentence of sentencesOf(text)) {
		const words = sentence.match(/[\p{L}][\p{L}\d'’-]*/gu) ?? [];
		const titled = words
			.slice(1)
			.filter((word) => /^\p{Lu}\p{Ll}/u.test(word) && !properNouns.has(word));
		if (titled.length > 0) return `capitalised inside a sentence: ${titled.join(', ')}`;
	}
	return undefined;
}

function listed(problems: string[]): string {
	return problems.join('\n');
}

describe('the checks themselves', () => {
	test('tell Title Case, sentence case and quoted names apart', () => {
		expect(isTitleCase('Wait for Completion')).toBe(true);
		expect(isTitleCase('Wait for completion')).toBe(false);
		expect(
			sentenceCaseProblem("The machine files; unlock them with 'Unlock' first"),
		).toBeUndefined();
		expect(sentenceCaseProblem('The machine files; unlock them with Job > Unlock first')).toMatch(
			/Job, Unlock/,
		);
		expect(sentenceCaseProblem('the job to use')).toBe('starts in lower case');
		expect(sentencesOf("One. Two 'e.g. three'.")).toHaveLength(2);
		expect(articles.test('Get a job')).toBe(true);
		expect(articles.test('Get job')).toBe(false);
	});
});

describe('n8n UX guidelines, checked on the descriptions n8n loads', () => {
	test('the newest version of each node is its default version', () => {
		for (const node of nodes) {
			const versions = Array.isArray(node.version) ? node.version : [node.version];
			expect({ node: node.name, defaultVersion: node.defaultVersion }).toEqual({
				node: node.name,
				defaultVersion: Math.max(...versions),
			});
		}
	});

	test(
		'actions omit articles, name the resource and are in sentence case; operation descriptions ' +
			'name the resource too',
		() => {
			const problems = interfaceCopy
				.filter((copy) => copy.kind === 'action')
				.flatMap((copy) => {
					const resource = String(copy.property.displayOptions?.show?.resource?.[0] ?? '');
					const found: string[] = [];
					if (articles.test(copy.text)) found.push(`${copy.where}: "${copy.text}" has an article`);
					if (!new RegExp(`\\b${resource}s?\\b`, 'i').test(copy.text))
						found.push(`${copy.where}: "${copy.text}" does not name the ${resource}`);
					const casing = sentenceCaseProblem(copy.text);
					if (casing) found.push(`${copy.where}: "${copy.text}" ${casing}`);
					const option = (copy.property.options ?? [])
						.filter(isOption)
						.find((entry) => entry.action === copy.text);
					if (!new RegExp(`\\b${resource}s?\\b`, 'i').test(String(option?.description))) {
						found.push(
							`${copy.where}: the description "${String(option?.description)}" does not name the ${resource}`,
						);
					}
					return found;
				});
			expect(listed(problems)).toBe('');
		},
	);

	test('placeholders of text inputs show an example that starts with "e.g."', () => {
		const problems = interfaceCopy
			.filter((copy) => copy.kind === 'placeholder' && !copy.text.startsWith('e.g. '))
			.map((copy) => `${copy.where}: "${copy.text}"`);
		expect(listed(problems)).toBe('');
	});

	test('boolean descriptions start with "Whether"', () => {
		const problems = propertiesByNode
			.flatMap(({ properties }) => properties)
			.filter(
				({ property }) =>
					property.type === 'boolean' && !String(property.description ?? '').startsWith('Whether '),
			)
			.map(({ where, property }) => `${where}: "${String(property.description)}"`);
		expect(listed(problems)).toBe('');
	});

	test('node names, labels and dropdown titles are in Title Case', () => {
		const titles = [
			...nodes.map((node) => ({ where: node.name, text: node.displayName })),
			...interfaceCopy.filter((copy) => copy.kind === 'label' || copy.kind === 'dropdownTitle'),
		];
		const problems = titles
			.filter(({ text }) => !isTitleCase(text))
			.map(({ where, text }) => `${where}: "${text}"`);
		expect(listed(problems)).toBe('');
	});

	test('descriptions, tooltips, hints, info boxes and dropdown descriptions are in sentence case', () => {
		const sentences = [
			...nodes.map((node) => ({
				where: `${node.name} (node description)`,
				text: node.description,
			})),
			...interfaceCopy.filter((copy) =>
				['tooltip', 'hint', 'infoBox', 'dropdownDescription'].includes(copy.kind),
			),
		];
		const problems = sentences.flatMap(({ where, text }) => {
			const casing = sentenceCaseProblem(text);
			return casing ? [`${where}: "${text}" ${casing}`] : [];
		});
		expect(listed(problems)).toBe('');
	});

	test('tooltips and info boxes end with a period only when they hold more than one sentence', () => {
		const problems = interfaceCopy
			.filter(
				(copy) =>
					copy.kind === 'tooltip' || copy.kind === 'infoBox' || copy.kind === 'dropdownDescription',
			)
			.flatMap((copy) => {
				const several = sentencesOf(copy.text).length > 1;
				const period = /\.$/.test(copy.text.trim());
				if (several && !period)
					return [`${copy.where}: several sentences without a final period: "${copy.text}"`];
				if (!several && period)
					return [`${copy.where}: one sentence with a final period: "${copy.text}"`];
				return [];
			});
		expect(listed(problems)).toBe('');
	});

	test('copy names other parameters in single quotes', () => {
		const names = new Set(
			propertiesByNode
				.flatMap(({ properties }) => properties)
				.filter(({ property }) => property.type !== 'notice' && property.displayName.includes(' '))
				.map(({ property }) => property.displayName),
		);
		const problems = interfaceCopy
			.filter((copy) => ['tooltip', 'hint', 'infoBox', 'dropdownDescription'].includes(copy.kind))
			.flatMap((copy) => {
				const text = unquoted(copy.text);
				return [...names]
					.filter((name) => text.includes(name))
					.map((name) => `${copy.where}: ${name} unquoted in "${copy.text}"`);
			});
		expect(listed(problems)).toBe('');
	});

	test('dropdown options are sorted alphabetically', () => {
		const problems = propertiesByNode
			.flatMap(({ properties }) => properties)
			.filter(
				({ property }) =>
					['options', 'multiOptions'].includes(property.type) && Array.isArray(property.options),
			)
			.flatMap(({ property, where }) => {
				const names = (property.options ?? []).filter(isOption).map((option) => option.name);
				const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
				return names.join('|') === sorted.join('|') ? [] : [`${where}: ${names.join(', ')}`];
			});
		expect(listed(problems)).toBe('');
	});

	test('optional fields in a collection are sorted alphabetically', () => {
		const problems = propertiesByNode
			.flatMap(({ properties }) => properties)
			.filter(({ property }) => property.type === 'collection')
			.flatMap(({ property, where }) => {
				const names = (property.options ?? []).map(
					(option) => (option as INodeProperties).displayName,
				);
				const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
				return names.join('|') === sorted.join('|') ? [] : [`${where}: ${names.join(', ')}`];
			});
		expect(listed(problems)).toBe('');
	});

	test('an option that means every value is called "All"', () => {
		const problems = interfaceCopy
			.filter((copy) => copy.kind === 'dropdownTitle' && /^(Any|Both|Every|\*)$/.test(copy.text))
			.map((copy) => `${copy.where}: "${copy.text}"`);
		expect(listed(problems)).toBe('');
	});

	test(
		'the trigger is named "... Trigger", its events parameter "Trigger On" without a tooltip; ' +
			'no node says "node" in its name',
		() => {
			expect(trigger.displayName).toMatch(/ Trigger$/);
			for (const node of nodes) expect(node.displayName).not.toMatch(/\bnode\b/i);
			const events = trigger.properties.find((property) => property.name === 'events');
			expect(events).toMatchObject({ displayName: 'Trigger On' });
			expect(events?.description).toBeUndefined();
		},
	);

	test('API keys are password fields', () => {
		const secrets = credentials.properties.filter((property) =>
			/key|token|secret|password/i.test(property.name),
		);
		expect(secrets.length).toBeGreaterThan(0);
		for (const secret of secrets) expect(secret.typeOptions?.password).toBe(true);
	});

	/** Argued in docs/verification.md ("Resource locator"): the job is nearly always the incoming item. */
	const locatorsArguedById = ['Embroidery > jobId'];

	test('resource locators default to From List, unless argued', () => {
		const problems = propertiesByNode
			.flatMap(({ properties }) => properties)
			.filter(({ property }) => property.type === 'resourceLocator')
			.filter(({ property }) => property.modes?.some((mode) => mode.type === 'list'))
			.filter(({ property }) => (property.default as { mode?: string }).mode !== 'list')
			.filter(({ where }) => !locatorsArguedById.includes(where))
			.map(
				({ where, property }) =>
					`${where}: default mode ${String((property.default as { mode?: string }).mode)}`,
			);
		expect(listed(problems)).toBe('');
	});
});

describe("Simplify and the AI tool variant's Output, on the newest version", () => {
	const newest = (node: INodeTypeDescription) =>
		Math.max(...(Array.isArray(node.version) ? node.version : [node.version]));

	/** The properties n8n shows for these values, in this version, in the node or in its tool variant. */
	function shown(
		node: INodeTypeDescription,
		values: Record<string, unknown>,
		tool: boolean,
	): INodeProperties[] {
		const instance = { typeVersion: newest(node), parameters: values } as unknown as INode;
		const type = { ...node, name: tool ? `${node.name}Tool` : node.name };
		return node.properties.filter((property) =>
			NodeHelpers.displayParameter(values as never, property, instance, type),
		);
	}

	const operations = action.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.options ?? []).filter(isOption).map((option) => ({
				resource: String(property.displayOptions?.show?.resource?.[0]),
				operation: String(option.value),
			})),
		);

	/** A detailed job with every field the service sends, and everything the nodes add to a job's item. */
	const everyField = {
		id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
		workflow: 'conversion',
		status: 'completed',
		provider: 'engine',
		formats: ['dst'],
		widthMm: 80,
		colourCount: 4,
		attemptCount: 1,
		metrics: { stitchCount: 2400, widthMm: 80, heightMm: 60 },
		warnings: ['DST carries no thread colours'],
		failureCode: null,
		failureReason: null,
		downloadsUnlocked: true,
		unlock: { unlocked: true },
		source: {
			id: 's',
			name: 'logo.png',
			size: 1000,
			downloadUrl: 'http://127.0.0.1/s?signature=1',
			previewUrl: null,
		},
		outputs: [
			{
				id: 'o',
				name: 'logo.dst',
				size: 900,
				downloadUrl: 'http://127.0.0.1/o?signature=1',
				previewUrl: null,
			},
		],
		artifacts: [
			{
				kind: 'preview',
				name: 'logo.png',
				previewUrl: 'http://127.0.0.1/p?signature=1',
				downloadUrl: null,
			},
		],
		events: [{ type: 'completed' }],
		createdAt: '2026-01-01T00:00:00.000Z',
		completedAt: '2026-01-01T00:01:00.000Z',
		message: 'Unlocked',
		sourceBinaryField: 'data',
		files: [
			{ kind: 'preview', binaryField: 'preview', fileName: 'logo.png', mimeType: 'image/png' },
		],
		outputsLocked: false,
		outputsLockedNote: 'note',
	};
	/** Reports of what failed in this run, kept beside the ten fields; argued in docs/verification.md ("Simplify"). */
	const runReports = ['detailError', 'fileErrors', 'warningsUnavailable'];

	test('Simplify returns at most 10 fields, none of them nested', () => {
		const simple = simplifyJob({ ...everyField, detailError: 'The service failed: Server Error' });
		const fields = Object.keys(simple).filter((key) => !runReports.includes(key));
		expect(fields.length).toBeLessThanOrEqual(10);
		const nested = fields.filter(
			(key) =>
				typeof simple[key] === 'object' && simple[key] !== null && !Array.isArray(simple[key]),
		);
		expect(nested).toEqual([]);
		expect(simple.detailError).toBe('The service failed: Server Error');
	});

	test('Simplify is named and described as the guideline says, wherever it is shown', () => {
		const simplify = [...action.properties, ...trigger.properties].filter(
			(property) => property.name === 'simplify',
		);
		expect(simplify.length).toBeGreaterThan(0);
		for (const property of simplify) {
			expect(property).toMatchObject({ displayName: 'Simplify', type: 'boolean', default: true });
			expect(property.description).toMatch(
				/^Whether to return a simplified version of the response instead of the raw data\b/,
			);
		}
		expect(
			shown(trigger, { events: ['completed'] }, false).map((property) => property.name),
		).toContain('simplify');
	});

	test(
		'the tool variant has Output (Simplified, Raw, Selected Fields) wherever the node has ' +
			'Simplify, and no Simplify',
		() => {
			const simplified = operations.filter((values) =>
				shown(action, values, false).some((property) => property.name === 'simplify'),
			);
			expect(simplified.map(({ resource, operation }) => `${resource}:${operation}`)).toEqual(
				expect.arrayContaining(['job:get', 'job:getMany']),
			);
			for (const values of simplified) {
				const inTool = shown(action, values, true);
				expect({
					...values,
					simplify: inTool.some((property) => property.name === 'simplify'),
				}).toEqual({ ...values, simplify: false });
				const output = inTool.find((property) => property.name === 'output');
				expect({ ...values, output: output?.type }).toEqual({ ...values, output: 'options' });
				expect(
					(output?.options ?? []).filter(isOption).map((option) => [option.name, option.value]),
				).toEqual(
					expect.arrayContaining([
						['Simplified', 'simplified'],
						['Raw', 'raw'],
						['Selected Fields', 'selected'],
					]),
				);
				expect(output?.default).toBe('simplified');
				const fields = shown(action, { ...values, output: 'selected' }, true).find(
					(property) => property.name === 'fields',
				);
				expect(fields?.type).toBe('multiOptions');
				// The ID always comes with the selected fields, so it is no choice.
				expect(
					(fields?.options ?? []).filter(isOption).map((option) => option.value),
				).not.toContain('id');
				expect(
					shown(action, { ...values, output: 'simplified' }, true).some(
						(property) => property.name === 'fields',
					),
				).toBe(false);
			}
			// The node itself (not the tool) has no Output.
			for (const values of simplified)
				expect(shown(action, values, false).some((property) => property.name === 'output')).toBe(
					false,
				);
		},
	);
});
