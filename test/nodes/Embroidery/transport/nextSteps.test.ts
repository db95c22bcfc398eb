/**
 * Every next step the node gives is worded in nextSteps.ts: each text there, and each text its functions
 * build, keeps n8n's wording guidelines (no banned words; a description says what to do next). A function
 * added without a sample below fails the first test, so no advice escapes the check.
 */
import * as nextSteps from '../../../../nodes/Embroidery/transport/nextSteps';
import type { JobRef } from '../../../../nodes/Embroidery/transport/jobIds';
import { bannedWords, namesNextStep, operationPath } from '../../support/wording';

const ref: JobRef = { id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'digitising' };
const {
	carryOnWithCreated,
	earlierTryAdvice,
	endSentence,
	generalAdvice,
	jobAdvice,
	oneFilePerRequestAdvice,
	outcomeUnknownAdvice,
	parameterAdvice,
	triggerAdvice,
} = nextSteps;

/** What each function of the module says for a sample case, by its path in the module. */
const samples: Record<string, () => string> = {
	endSentence: () => endSentence('format: must differ'),
	'generalAdvice.403': () => generalAdvice[403]('jobs:write').description,
	'generalAdvice.422.description': () => generalAdvice[422].description(['format: must differ']),
	'generalAdvice.429.waitTooLong': () => generalAdvice[429].waitTooLong(300),
	'generalAdvice.429.stillRefused': () => generalAdvice[429].stillRefused(5),
	'generalAdvice.serverFailed': () => generalAdvice.serverFailed(5).description,
	'generalAdvice.otherStatus': () => generalAdvice.otherStatus(418).description,
	'generalAdvice.unreachable.message': () => generalAdvice.unreachable.message('socket hang up'),
	'generalAdvice.unreachable.description': () => generalAdvice.unreachable.description(5),
	'generalAdvice.downloadCutOff': () => generalAdvice.downloadCutOff(4),
	'generalAdvice.redirectedPost': () => generalAdvice.redirectedPost(nextSteps.checkTheJobFirst),
	// Every route's lost answer, however many routes change something.
	...Object.fromEntries(
		Object.entries(outcomeUnknownAdvice).map(([route, advice]) => [
			`outcomeUnknownAdvice.${route}.lostMessage`,
			() => advice.lostMessage('socket hang up'),
		]),
	),
	carryOnWithCreated: () => carryOnWithCreated(2),
	'jobAdvice.created': () => jobAdvice.created(ref),
	'jobAdvice.check': () => jobAdvice.check(ref),
	'jobAdvice.inState': () =>
		jobAdvice.inState("The job can't be retried: Conflict", ref, 'completed'),
	'jobAdvice.pairByName': () => jobAdvice.pairByName(ref),
	'jobAdvice.notCompleted': () => jobAdvice.notCompleted('processing', undefined),
	oneFilePerRequestAdvice: () => oneFilePerRequestAdvice(true, 3),
	'earlierTryAdvice.create': () => earlierTryAdvice.create(''),
	'earlierTryAdvice.retry': () => earlierTryAdvice.retry(ref, 'no answer'),
	'earlierTryAdvice.unlock': () => earlierTryAdvice.unlock(ref),
	'jobAdvice.notFoundAnywhere': () => jobAdvice.notFoundAnywhere(50),
	'jobAdvice.mismatchedOrder': () => jobAdvice.mismatchedOrder(ref),
	'jobAdvice.countMismatch': () => jobAdvice.countMismatch('The answer named no job.'),
	'parameterAdvice.missingBinaryField': () => parameterAdvice.missingBinaryField(['data']),
	'parameterAdvice.timeout': () => parameterAdvice.timeout(600),
	'triggerAdvice.eventValues': () => triggerAdvice.eventValues(['completed', 'failed']),
	'triggerAdvice.workflowValues': () => triggerAdvice.workflowValues(['conversion', 'digitising']),
};

/** Every text and function of the module, by its path. */
function entriesOf(
	value: unknown,
	path: string,
	found: { texts: Map<string, string>; functions: string[] },
) {
	if (typeof value === 'string') found.texts.set(path, value);
	else if (typeof value === 'function') found.functions.push(path);
	else if (typeof value === 'object' && value !== null)
		for (const [key, inner] of Object.entries(value))
			entriesOf(inner, path === '' ? key : `${path}.${key}`, found);
	return found;
}

const everyEntry = entriesOf(nextSteps, '', { texts: new Map(), functions: [] });

/** A next step in words, or the operation the user runs next (a note: "Embroidery node: Job > Unlock"). */
const tellsWhatToDo = (text: string) =>
	namesNextStep(text) || new RegExp(operationPath.source).test(text);

/** Parts of messages, not descriptions (the description beside them gives the step): banned words only. */
const messageParts = new Set([
	'endSentence',
	'generalAdvice.unreachable.message',
	'jobAdvice.inState',
	'parameterAdvice.tooManySources',
	'parameterAdvice.noCredential.message',
	'triggerAdvice.noEvents.message',
	// Notes on what the node does, beside a description that gives the step (or when there is none to give).
	'triggerAdvice.keepsPolling',
	'signedUrlAdvice.foreignHost',
]);
const isMessagePart = (path: string) =>
	messageParts.has(path) || /\.(title|failedTitle|lostMessage)$/.test(path);

function checkWording(path: string, text: string) {
	if (!isMessagePart(path)) expect(tellsWhatToDo(text)).toBe(true);
	expect(bannedWords.exec(text.replace(operationPath, ' '))).toBeNull();
}

describe('nextSteps.ts: the one home of what the user is told to do next', () => {
	test('each function of the module has a sample here, so its wording is checked too', () => {
		expect(everyEntry.functions.filter((path) => !(path in samples))).toEqual([]);
	});

	test.each([...everyEntry.texts])('%s names a next step and no banned word', (path, text) =>
		checkWording(path, text),
	);

	test.each(Object.entries(samples))(
		'%s, as built, names a next step and no banned word',
		(path, said) => checkWording(path, said()),
	);

	test('advice about a job names it, so the user can look it up', () => {
		for (const text of [
			jobAdvice.created(ref),
			jobAdvice.check(ref),
			jobAdvice.pairByName(ref),
			earlierTryAdvice.retry(ref, 'no answer'),
			earlierTryAdvice.unlock(ref),
		]) {
			expect(text).toContain(`id ${ref.id}`);
			expect(text).toContain(`workflow "${ref.workflow}"`);
		}
	});

	test('jobs created before a run stopped are carried on with, in the singular or the plural', () => {
		expect(carryOnWithCreated(1)).toBe(
			'do not create it again: use Job > Wait for Completion or Job > Get with this id and workflow.',
		);
		expect(carryOnWithCreated(3)).toBe(
			'do not create them again: use Job > Wait for Completion or Job > Get with these ids and workflows.',
		);
		expect(jobAdvice.created(ref)).toBe(
			`The job was created (id ${ref.id}, workflow "digitising"); ${carryOnWithCreated(1)}`,
		);
	});

	test("a job's results asked for too early: a failed job is retried, another is waited for", () => {
		expect(jobAdvice.notCompleted('failed', 'stitch density too high')).toBe(
			'It failed: stitch density too high. Use Job > Retry, then wait for it.',
		);
		expect(jobAdvice.notCompleted('failed', null)).toContain('no reason given');
		expect(jobAdvice.notCompleted('queued', undefined)).toBe(
			'Use Job > Wait for Completion before downloading.',
		);
	});

	test('a list of field messages ends as one sentence', () => {
		expect(endSentence('format: must differ ')).toBe('format: must differ.');
		expect(endSentence('Pick one (PES or JEF).')).toBe('Pick one (PES or JEF).');
		expect(endSentence('Pick one (PES or JEF)')).toBe('Pick one (PES or JEF).');
	});
});
