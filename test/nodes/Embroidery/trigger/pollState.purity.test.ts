/**
 * pollState.ts is the trigger's pure state machine: loading it loads nothing of n8n, it keeps nothing between
 * calls, and it changes none of its inputs. Where the state is kept (n8n's static data) is savedState.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import ts from 'typescript';

import type {
	FollowUpResult,
	PollState,
	TriggerFilter,
} from '../../../../nodes/Embroidery/trigger/pollState';
import {
	advancePoll,
	holdBackEndings,
	jobsToFollowUp,
	readPollState,
} from '../../../../nodes/Embroidery/trigger/pollState';
import { jobsListingSize } from '../../../../nodes/Embroidery/transport';
import { JobsInMemory } from './support/jobsInMemory';

const pollStatePath = resolve(__dirname, '../../../../nodes/Embroidery/trigger/pollState.ts');

/** The files a fresh Node process has loaded once it has loaded `path` and nothing else. */
function modulesLoadedWith(path: string): string[] {
	const script = `require(${JSON.stringify(path)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
	const loader = ['--require', require.resolve('tsx/cjs')];
	const output = execFileSync(process.execPath, [...loader, '-e', script], { encoding: 'utf8' });
	return JSON.parse(output) as string[];
}

/** Top-level declarations whose value could change between calls: `let`, `var`, or a `const` holding an object. */
function moduleLevelMutables(source: string): string[] {
	const file = ts.createSourceFile(pollStatePath, source, ts.ScriptTarget.Latest, true);
	const isFixedValue = (node: ts.Expression): boolean =>
		ts.isStringLiteral(node) ||
		ts.isNumericLiteral(node) ||
		ts.isNoSubstitutionTemplateLiteral(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node) ||
		(ts.isParenthesizedExpression(node) && isFixedValue(node.expression)) ||
		(ts.isBinaryExpression(node) && isFixedValue(node.left) && isFixedValue(node.right));
	const found: string[] = [];
	for (const statement of file.statements) {
		if (ts.isClassDeclaration(statement)) found.push(`class ${statement.name?.text ?? ''}`);
		if (ts.isExpressionStatement(statement)) found.push(statement.getText(file));
		if (!ts.isVariableStatement(statement)) continue;
		const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
		for (const declaration of statement.declarationList.declarations) {
			const name = declaration.name.getText(file);
			if (!constant) found.push(name);
			else if (!declaration.initializer || !isFixedValue(declaration.initializer)) found.push(name);
		}
	}
	return found;
}

function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null) {
		for (const inner of Object.values(value)) deepFreeze(inner);
		Object.freeze(value);
	}
	return value;
}

const everything: TriggerFilter = deepFreeze({
	events: ['completed', 'failed'],
	workflows: ['conversion', 'digitising'],
});

describe('pollState.ts, the pure state machine', () => {
	it('loads nothing of n8n: no n8n-workflow, no n8n-core, not the saved state (savedState.ts)', () => {
		const loaded = modulesLoadedWith(pollStatePath);
		expect(loaded).toContain(pollStatePath);
		const reached = loaded.flatMap(
			(path) => /n8n-workflow|n8n-core|savedState\.ts$/.exec(path) ?? [],
		);
		expect([...new Set(reached)]).toEqual([]);
	});

	it('keeps no state of its own at module level: no let or var, no object held in a const', () => {
		expect(moduleLevelMutables(readFileSync(pollStatePath, 'utf8'))).toEqual([]);
		// The check itself tells a module-level map from a fixed value.
		expect(
			moduleLevelMutables('const seen = new Map();\nlet count = 0;\nconst limit = 10 * 60_000;'),
		).toEqual(['seen', 'count']);
	});

	it('changes none of its inputs, and gives the same answer to the same question between other polls', async () => {
		const jobs = new JobsInMemory();
		jobs.createMany(jobsListingSize + 10, 'conversion', 'processing');
		const baseline = deepFreeze(
			advancePoll(undefined, jobs.listing(), [], everything, jobs.now()).state,
		);
		const [left] = jobs.listing().slice(-1);
		jobs.set(left.id, 'failed');
		// The failed job leaves the listing: a follow-up finds its ending; five new jobs ended too.
		jobs.createMany(5, 'digitising', 'completed');
		const listing = deepFreeze(jobs.listing());
		const now = jobs.now();
		const asked = deepFreeze(jobsToFollowUp(baseline, listing, everything, now));
		const source = jobs.source();
		const answers: FollowUpResult[] = [];
		for (const job of asked) answers.push((await source.getJob(job)) ?? { id: job.id, gone: true });
		deepFreeze(answers);
		const poll = () => advancePoll(baseline, listing, answers, everything, now);

		const first = poll();
		const held: PollState = holdBackEndings(first.state, deepFreeze(first.emit));
		advancePoll(held, listing, [], everything, now + 60_000);
		readPollState(deepFreeze(JSON.parse(JSON.stringify(held)) as unknown));
		expect(first.emit.map((job) => job.id)).toContain(left.id);
		expect(first.emit).toHaveLength(6);
		expect(poll()).toEqual(first);
		expect(jobsToFollowUp(baseline, listing, everything, now)).toEqual(asked);
	});
});
