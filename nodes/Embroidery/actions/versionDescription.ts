import { updateDisplayOptions } from 'n8n-workflow';
import type { IDisplayOptions, INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { shapingProperties, shownFromVersion, shownInVersions } from './common.descriptions';
import * as account from './account/Account.resource';
import * as file from './file/File.resource';
import * as format from './format/Format.resource';
import * as job from './job/Job.resource';
import { nodeVersions } from './types';
import type {
	EmbroideryOperation,
	EmbroideryResource,
	NodeVersion,
	OutputShaping,
	ResourceTable,
} from './types';

export const credentials: INodeCredentialDescription[] = [
	{ name: 'embroideryApi', required: true },
];

/** Every resource by value, in the order the AI tool lists them (the editor sorts them by name). */
export const resources = { job, format, account, file } satisfies ResourceTable;

function byName<T extends { name: string }>(a: T, b: T): number {
	return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });
}

/** The resource selector: each resource by name, the first in the table by default. */
function resourceSelector(table: ResourceTable): INodeProperties {
	const [first] = Object.keys(table);
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(table)
			.map(([value, resource]) => ({ name: resource.displayName, value }))
			.sort(byName),
		default: first,
	};
}

/** A resource's operations as the editor lists them: by name. */
function operationsByName(resource: EmbroideryResource): Array<[string, EmbroideryOperation]> {
	return Object.entries(resource.operations).sort(([, a], [, b]) => byName(a.option, b.option));
}

function operationSelector(value: string, resource: EmbroideryResource): INodeProperties {
	const [first] = Object.keys(resource.operations);
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options: operationsByName(resource).map(([operation, { option }]) => ({
			name: option.name,
			value: operation,
			description: option.description,
			action: option.action,
		})),
		default: first,
	};
}

type AddedInVersion3 = Extract<OutputShaping, { fromVersion: 3 }>;

/**
 * Simplify and Output that version 3 added to operations, after all of the resource's parameters: one set for
 * the operations that share a shaping and a condition, the sets without a condition first.
 */
function addedInVersion3(value: string, resource: EmbroideryResource): INodeProperties[] {
	const sets: Array<{ output: AddedInVersion3; operations: string[] }> = [];
	for (const [operation, { output }] of operationsByName(resource)) {
		if (output?.fromVersion !== 3) continue;
		const shared = sets.find(
			(set) =>
				set.output.shaping === output.shaping &&
				JSON.stringify(set.output.when) === JSON.stringify(output.when),
		);
		if (shared) shared.operations.push(operation);
		else sets.push({ output, operations: [operation] });
	}
	return sets
		.sort((a, b) => Number(a.output.when !== undefined) - Number(b.output.when !== undefined))
		.flatMap(({ output, operations }) =>
			updateDisplayOptions(
				{ show: { resource: [value], operation: operations, ...output.when } },
				shapingProperties(output.shaping, 3),
			),
		);
}

/**
 * A resource's parameters: its Operation selector, then each operation's own parameters (with the Simplify
 * they had from version 2), then what version 3 added.
 */
function resourceProperties(value: string, resource: EmbroideryResource): INodeProperties[] {
	return [
		operationSelector(value, resource),
		...operationsByName(resource).flatMap(([operation, { description, output }]) =>
			updateDisplayOptions({ show: { resource: [value], operation: [operation] } }, [
				...description,
				...(output?.fromVersion === 2 ? shapingProperties(output.shaping, 2) : []),
			]),
		),
		...addedInVersion3(value, resource),
	];
}

/** The display condition of a version's text: the newest version's holds for any later one. */
function shownIn(version: NodeVersion): IDisplayOptions['show'] {
	const newest = nodeVersions[nodeVersions.length - 1];
	return version === newest ? shownFromVersion(version) : shownInVersions(version);
}

function toolDescriptionField(
	resource: string,
	operation: string,
	text: string,
	version?: IDisplayOptions['show'],
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 4 },
		displayOptions: {
			show: { '@tool': [true], resource: [resource], operation: [operation], ...version },
		},
		description:
			'What the AI model is told about this tool: what it does, what it costs and which fields to fill',
	};
}

/**
 * The Tool variant's Description field for each operation, with its text as default: one field when every
 * version has the same text, otherwise one per version. `@tool` shows it only in the Tool variant; because it
 * exists, n8n adds no description field of its own there.
 */
function toolDescriptionFields(table: ResourceTable): INodeProperties[] {
	return Object.entries(table).flatMap(([resource, { operations }]) =>
		Object.entries(operations).flatMap(([operation, { toolDescription }]) => {
			const texts = nodeVersions.map((version) => toolDescription[version]);
			if (texts.every((text) => text === texts[0]))
				return [toolDescriptionField(resource, operation, texts[0])];
			return nodeVersions.map((version) =>
				toolDescriptionField(resource, operation, toolDescription[version], shownIn(version)),
			);
		}),
	);
}

/** The node's parameters, built from a resource table: the resource selector, each resource's, the tool's texts. */
export function nodeProperties(table: ResourceTable): INodeProperties[] {
	return [
		resourceSelector(table),
		...Object.entries(table).flatMap(([value, resource]) => resourceProperties(value, resource)),
		...toolDescriptionFields(table),
	];
}

export const properties = nodeProperties(resources);
