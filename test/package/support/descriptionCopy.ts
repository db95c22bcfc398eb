/**
 * The node descriptions as n8n loads them, and the copy a user reads in them, for the checks of n8n's UX
 * guidelines in test/package/descriptions*.test.ts (docs/verification.md says where every point is met).
 */
import { NodeHelpers } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { EmbroideryApi } from '../../../credentials/EmbroideryApi.credentials';

// Named with their extension: beside each X.node.ts lies its codex X.node.json, which the resolver would pick.
export const { Embroidery } =
	require('../../../nodes/Embroidery/Embroidery.node.ts') as typeof import('../../../nodes/Embroidery/Embroidery.node');
export type TriggerNode = typeof import('../../../nodes/Embroidery/EmbroideryTrigger.node');
export const { EmbroideryTrigger } =
	require('../../../nodes/Embroidery/EmbroideryTrigger.node.ts') as TriggerNode;

export const action = new Embroidery().description;
export const trigger = new EmbroideryTrigger().description;
export const credentials = new EmbroideryApi();
export const nodes = [action, trigger];

/** The properties n8n shows for these values, in this version, in the node or in its tool variant. */
export function shownProperties(
	node: INodeTypeDescription,
	values: Record<string, unknown>,
	version: number,
	tool = false,
): INodeProperties[] {
	const instance = { typeVersion: version, parameters: values } as unknown as INode;
	const type = { ...node, name: tool ? `${node.name}Tool` : node.name };
	return node.properties.filter((property) =>
		NodeHelpers.displayParameter(values as never, property, instance, type),
	);
}

/** One piece of text the user reads, with where it is and how the guidelines say it must read. */
export interface Copy {
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

export function isOption(value: unknown): value is INodePropertyOptions {
	return typeof value === 'object' && value !== null && 'value' in value && 'name' in value;
}

export function isCollection(value: unknown): value is INodePropertyCollection {
	return typeof value === 'object' && value !== null && 'values' in value;
}

/** Every property, nested ones included (collection options, fixed collection values), each with its path. */
export function allProperties(
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

export function copyOf(property: INodeProperties, where: string): Copy[] {
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

export const propertiesByNode = [
	...nodes.map((node) => ({
		name: node.displayName,
		properties: allProperties(node.properties, node.displayName),
	})),
	{
		name: credentials.displayName,
		properties: allProperties(credentials.properties, credentials.displayName),
	},
];
export const allCopy: Copy[] = propertiesByNode.flatMap(({ properties }) =>
	properties.flatMap(({ property, where }) => copyOf(property, where)),
);
/** The tool variant's Description fields hold what a model is told, not interface copy. */
export const interfaceCopy = allCopy.filter((copy) => copy.property.name !== 'toolDescription');

export const articles = /\b(a|an|the)\b/i;
/** Words Title Case leaves in lower case. */
export const smallWords = new Set([
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
export const properNouns = new Set(['WebP', 'Embroidery']);

/** Text outside quotes and links: what the casing rules read (a quoted parameter name keeps its Title Case). */
export function unquoted(text: string): string {
	return text
		.replace(/<a [^>]*>[^<]*<\/a>/g, ' ')
		.replace(/(?<![\p{L}\d])'[^']+'(?![\p{L}\d])/gu, ' ')
		.replace(/"[^"]*"/g, ' ');
}

export function sentencesOf(text: string): string[] {
	return unquoted(text)
		.split(/(?<=[.!?])\s+/)
		.map((sentence) => sentence.trim())
		.filter((sentence) => sentence !== '');
}

export function isTitleCase(text: string): boolean {
	const words = text.split(/\s+/).map((word) => word.replace(/^[("'(]+|[)"',:]+$/g, ''));
	return words.every((word, index) => {
		if (word === '' || !/^\p{L}/u.test(word)) return true;
		if (index > 0 && smallWords.has(word)) return true;
		return /^\p{Lu}/u.test(word);
	});
}

/** Sentence case: each sentence starts with a capital, and inside it only acronyms and proper nouns do. */
export function sentenceCaseProblem(text: string): string | undefined {
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

export function listed(problems: string[]): string {
	return problems.join('\n');
}
