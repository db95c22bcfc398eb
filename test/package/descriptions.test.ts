/**
 * n8n's UX guidelines (ux-guidelines.md, node-ui-design.md), the rules a machine can check, read off the
 * node descriptions as n8n loads them: every property of every version, nested collections and options,
 * resource locator modes, the credentials, and the AI tool variant n8n derives from a node that is usable
 * as a tool (same properties, its name ending in "Tool"). docs/verification.md says where every other point
 * of the two pages is met, and argues each deviation this test lists as argued.
 */

import {
	trigger,
	credentials,
	nodes,
	propertiesByNode,
	interfaceCopy,
	articles,
	sentencesOf,
	isTitleCase,
	sentenceCaseProblem,
	listed,
} from './support/descriptionCopy';
import {
	actionProblems,
	allOptionProblems,
	booleanProblems,
	ofKind,
	periodProblems,
	placeholderProblems,
	sentenceCaseProblems,
	titleCaseProblems,
	unquotedNameProblems,
	unsortedCollectionProblems,
	unsortedOptionProblems,
} from './support/guidelines';

const properties = propertiesByNode.flatMap((node) => node.properties);

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
			const problems = actionProblems(interfaceCopy);
			expect(listed(problems)).toBe('');
		},
	);

	test('placeholders of text inputs show an example that starts with "e.g."', () => {
		const problems = placeholderProblems(interfaceCopy);
		expect(listed(problems)).toBe('');
	});

	test('boolean descriptions start with "Whether"', () => {
		const problems = booleanProblems(properties);
		expect(listed(problems)).toBe('');
	});

	test('node names, labels and dropdown titles are in Title Case', () => {
		const problems = titleCaseProblems([
			...nodes.map((node) => ({ where: node.name, text: node.displayName })),
			...ofKind(interfaceCopy, 'label', 'dropdownTitle'),
		]);
		expect(listed(problems)).toBe('');
	});

	test('descriptions, tooltips, hints, info boxes and dropdown descriptions are in sentence case', () => {
		const problems = sentenceCaseProblems([
			...nodes.map((node) => ({
				where: `${node.name} (node description)`,
				text: node.description,
			})),
			...ofKind(interfaceCopy, 'tooltip', 'hint', 'infoBox', 'dropdownDescription'),
		]);
		expect(listed(problems)).toBe('');
	});

	test('tooltips and info boxes end with a period only when they hold more than one sentence', () => {
		const problems = periodProblems(interfaceCopy);
		expect(listed(problems)).toBe('');
	});

	test('copy names other parameters in single quotes', () => {
		const problems = unquotedNameProblems(properties, interfaceCopy);
		expect(listed(problems)).toBe('');
	});

	test('dropdown options are sorted alphabetically', () => {
		const problems = unsortedOptionProblems(properties);
		expect(listed(problems)).toBe('');
	});

	test('optional fields in a collection are sorted alphabetically', () => {
		const problems = unsortedCollectionProblems(properties);
		expect(listed(problems)).toBe('');
	});

	test('an option that means every value is called "All"', () => {
		const problems = allOptionProblems(interfaceCopy);
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
