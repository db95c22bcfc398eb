/**
 * The rules of n8n's UX guidelines a machine can check (descriptions.test.ts), each a function that lists what
 * breaks it in a node's properties or copy, so a node built with an extra operation is checked the same way.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	allProperties,
	articles,
	copyOf,
	isOption,
	isTitleCase,
	sentenceCaseProblem,
	sentencesOf,
	unquoted,
} from './descriptionCopy';
import type { Copy } from './descriptionCopy';

export interface PlacedProperty {
	property: INodeProperties;
	where: string;
}

export interface PlacedText {
	where: string;
	text: string;
}

/** A node's properties, nested ones included, and the interface copy in them (not the tool's Description). */
export function readNode(node: { displayName: string; properties: INodeProperties[] }): {
	properties: PlacedProperty[];
	copy: Copy[];
} {
	const properties = allProperties(node.properties, node.displayName);
	const copy = properties
		.flatMap(({ property, where }) => copyOf(property, where))
		.filter((text) => text.property.name !== 'toolDescription');
	return { properties, copy };
}

export function ofKind(copy: Copy[], ...kinds: Array<Copy['kind']>): Copy[] {
	return copy.filter((text) => kinds.includes(text.kind));
}

/** Actions omit articles, name the resource and are in sentence case; so do their operations' descriptions. */
export function actionProblems(copy: Copy[]): string[] {
	return ofKind(copy, 'action').flatMap((text) => {
		const resource = String(text.property.displayOptions?.show?.resource?.[0] ?? '');
		const found: string[] = [];
		if (articles.test(text.text)) found.push(`${text.where}: "${text.text}" has an article`);
		if (!new RegExp(`\\b${resource}s?\\b`, 'i').test(text.text))
			found.push(`${text.where}: "${text.text}" does not name the ${resource}`);
		const casing = sentenceCaseProblem(text.text);
		if (casing) found.push(`${text.where}: "${text.text}" ${casing}`);
		const option = (text.property.options ?? [])
			.filter(isOption)
			.find((entry) => entry.action === text.text);
		if (!new RegExp(`\\b${resource}s?\\b`, 'i').test(String(option?.description))) {
			found.push(
				`${text.where}: the description "${String(option?.description)}" does not name the ${resource}`,
			);
		}
		return found;
	});
}

/** Placeholders of text inputs show an example that starts with "e.g.". */
export function placeholderProblems(copy: Copy[]): string[] {
	return ofKind(copy, 'placeholder')
		.filter((text) => !text.text.startsWith('e.g. '))
		.map((text) => `${text.where}: "${text.text}"`);
}

/** Boolean descriptions start with "Whether". */
export function booleanProblems(properties: PlacedProperty[]): string[] {
	return properties
		.filter(
			({ property }) =>
				property.type === 'boolean' && !String(property.description ?? '').startsWith('Whether '),
		)
		.map(({ where, property }) => `${where}: "${String(property.description)}"`);
}

export function titleCaseProblems(texts: PlacedText[]): string[] {
	return texts
		.filter(({ text }) => !isTitleCase(text))
		.map(({ where, text }) => `${where}: "${text}"`);
}

export function sentenceCaseProblems(texts: PlacedText[]): string[] {
	return texts.flatMap(({ where, text }) => {
		const casing = sentenceCaseProblem(text);
		return casing ? [`${where}: "${text}" ${casing}`] : [];
	});
}

/** Tooltips and info boxes end with a period only when they hold more than one sentence. */
export function periodProblems(copy: Copy[]): string[] {
	return ofKind(copy, 'tooltip', 'infoBox', 'dropdownDescription').flatMap((text) => {
		const several = sentencesOf(text.text).length > 1;
		const period = /\.$/.test(text.text.trim());
		if (several && !period)
			return [`${text.where}: several sentences without a final period: "${text.text}"`];
		if (!several && period)
			return [`${text.where}: one sentence with a final period: "${text.text}"`];
		return [];
	});
}

/** Copy names other parameters in single quotes. */
export function unquotedNameProblems(properties: PlacedProperty[], copy: Copy[]): string[] {
	const names = new Set(
		properties
			.filter(({ property }) => property.type !== 'notice' && property.displayName.includes(' '))
			.map(({ property }) => property.displayName),
	);
	return ofKind(copy, 'tooltip', 'hint', 'infoBox', 'dropdownDescription').flatMap((text) => {
		const plain = unquoted(text.text);
		return [...names]
			.filter((name) => plain.includes(name))
			.map((name) => `${text.where}: ${name} unquoted in "${text.text}"`);
	});
}

function unsorted(names: string[]): boolean {
	const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
	return names.join('|') !== sorted.join('|');
}

/** Dropdown options are sorted alphabetically. */
export function unsortedOptionProblems(properties: PlacedProperty[]): string[] {
	return properties
		.filter(
			({ property }) =>
				['options', 'multiOptions'].includes(property.type) && Array.isArray(property.options),
		)
		.flatMap(({ property, where }) => {
			const names = (property.options ?? []).filter(isOption).map((option) => option.name);
			return unsorted(names) ? [`${where}: ${names.join(', ')}`] : [];
		});
}

/** Optional fields in a collection are sorted alphabetically. */
export function unsortedCollectionProblems(properties: PlacedProperty[]): string[] {
	return properties
		.filter(({ property }) => property.type === 'collection')
		.flatMap(({ property, where }) => {
			const names = (property.options ?? []).map(
				(option) => (option as INodeProperties).displayName,
			);
			return unsorted(names) ? [`${where}: ${names.join(', ')}`] : [];
		});
}

/** An option that means every value is called "All". */
export function allOptionProblems(copy: Copy[]): string[] {
	return ofKind(copy, 'dropdownTitle')
		.filter((text) => /^(Any|Both|Every|\*)$/.test(text.text))
		.map((text) => `${text.where}: "${text.text}"`);
}
