/**
 * n8n's UX guidelines on Simplify and on the AI tool variant's Output, read off the newest node versions as n8n
 * loads them (docs/verification.md).
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { simplifyJob } from '../../nodes/Embroidery/helpers/simplify';
import { action, trigger, isOption, shownProperties } from './support/descriptionCopy';

describe("Simplify and the AI tool variant's Output, on the newest version", () => {
	const newest = (node: INodeTypeDescription) =>
		Math.max(...(Array.isArray(node.version) ? node.version : [node.version]));

	/** The properties n8n shows for these values, in the newest version, in the node or in its tool variant. */
	const shown = (node: INodeTypeDescription, values: Record<string, unknown>, tool: boolean) =>
		shownProperties(node, values, newest(node), tool);

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
