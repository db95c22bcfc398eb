import { artworkTypesOr } from './artworkTypes';
import type { JobRef } from './jobIds';

// What the node tells the user to do next, in the user's words: every next step its errors, hints and items
// give, each once. The transport's routes pick theirs here (routes.ts); helpers and operations import theirs.

/** What a refusal means: the message starts with `title` (the service's words follow); `description`: what to do. */
export interface Explanation {
	title: string;
	description: string;
}

/**
 * What a request that changes something (a POST) is told when the node cannot know whether the service acted:
 * its answer was lost, the service failed while handling it, or it was redirected and not sent again.
 */
export interface UncertainOutcome {
	/** The message when no answer came, with the connection's own reason. */
	lostMessage(reason: string): string;
	lostDescription: string;
	/** The message's start when the service answered with a 5xx. */
	failedTitle: string;
	failedDescription: string;
	/** What to look at before sending the request again. */
	checkFirst: string;
}

/** What a route's failures mean, beside the general wording every route shares. */
export interface FailureAdvice {
	/** Statuses the route answers with a meaning of its own (spec: Errors), in place of the general one. */
	statuses?: { 403?: Explanation; 409?: Explanation; 410?: Explanation };
	/** Added to a 422's description: what the request needs besides valid fields. */
	rejectedAlso?: string;
	/** Set where the service may have acted although no answer says so; such a request is never sent twice. */
	outcomeMayBeUnknown?: UncertainOutcome;
}

/** The text with a full stop at its end, unless it ends a sentence already ("…or JEF)." stays as it is). */
export function endSentence(text: string): string {
	return /[.!?]\)?$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What every route's refusals and failures mean, where the route says nothing of its own. */
export const generalAdvice = {
	401: {
		title: 'Authentication failed',
		description:
			'The API key is missing, invalid, expired or revoked. Create a new key and update ' +
			'the Embroidery API credential.',
	},
	403: (ability: string): Explanation => ({
		title: 'Forbidden',
		description:
			`This request needs the "${ability}" ability, or the job or file belongs to ` +
			`another account. Use a key with that ability, and only job ids your key's account owns.`,
	}),
	404: {
		title: 'Not found',
		description:
			'Check the job id and its workflow (conversion or digitising): both must match the ' +
			"job, and a key only sees its own account's jobs.",
	},
	410: {
		title: 'The file has expired',
		description:
			'The service no longer keeps this file. Create a new job from the original file to get it again.',
	},
	422: {
		title: 'The service rejected the request',
		description: (fields: readonly string[]): string =>
			fields.length > 0
				? `Fix these fields: ${endSentence(fields.join(' | '))}`
				: 'Check the fields and files sent.',
	},
	429: {
		title: 'Rate limit exceeded',
		waitTooLong: (seconds: number): string =>
			`The service asks to wait ${seconds} s, longer than the node waits within an execution. Run again later.`,
		stillRefused: (attempts: number): string =>
			`The service still refused after ${attempts} tries with waits in between. ` +
			`Wait a minute and run again, or process fewer items at once.`,
	},
	serverFailed: (attempts: number): Explanation => ({
		title: 'The service failed',
		description: `The service kept failing after ${attempts} tries. Try again later.`,
	}),
	otherStatus: (status: number): Explanation => ({
		title: 'Request failed',
		description:
			`The service answered HTTP ${status}. Check this item's parameters, and that the ` +
			`credential's 'Base URL' points to the v1 API.`,
	}),
	/** A read that got no answer, after its tries. */
	unreachable: {
		message: (reason: string): string => `The service could not be reached: ${reason}`,
		description: (attempts: number): string =>
			`No answer after ${attempts} tries. Check the 'Base URL' of the Embroidery ` +
			`API credential and that the service is up.`,
	},
	downloadCutOff: (restarts: number): string =>
		`The file was started again ${restarts} times and cut off each time; no part ` +
		'of it was kept. Check that the service is up and the network between it and n8n is ' +
		'stable, then run the node again.',
	redirectRefused:
		"The API key is only sent to the origin of the credential's 'Base URL', so the node " +
		"did not follow this redirect. Set the 'Base URL' to the address the service answers at itself.",
	redirectedPost: (checkFirst: string): string =>
		`Creating or retrying a job counts against the account's allowance and an unlock spends ` +
		`credits, so such a request is never sent twice (an upload cannot even be resent as it ` +
		`was): nothing went to the new address. ${checkFirst} A redirect ` +
		`usually means the credential's 'Base URL' is not the address the service answers at ` +
		`itself (http instead of https, another host name or path): set it to that address.`,
	unexpectedAnswer:
		"The service answered in a shape the node does not know. Check that the 'Base URL' points to the v1 API.",
};

/** Before an unlock is sent again: only the job's unlock state tells whether the first one went through. */
const checkUnlockFirst =
	'Check the job with Job > Get (downloadsUnlocked) before you unlock it again.';

/** What to do after an unlock whose outcome the node cannot know; it never sends the unlock again by itself. */
export const unlockUnknownAdvice =
	'The request may have reached the service and spent an entitlement or credits, so the node ' +
	`did not send it again. ${checkUnlockFirst}`;

/** Look at the job before sending a request about it again: the retry's advice, and any other's. */
export const checkTheJobFirst = 'Check the job with Job > Get before you try again.';

const notRepeated =
	'The request was not repeated automatically because the service may already have';
const checkJobsFirst = 'Check Job > Get Many before trying again.';

/** A creation or retry whose outcome is unknown: the jobs listing shows what it did. */
function mayHaveActed(checkFirst: string): UncertainOutcome {
	return {
		lostMessage: generalAdvice.unreachable.message,
		lostDescription: `${notRepeated} received it. ${checkJobsFirst}`,
		failedTitle: 'The service failed',
		failedDescription: `${notRepeated} acted on it. ${checkJobsFirst}`,
		checkFirst,
	};
}

/** What the routes that change something say when the node cannot know whether the service acted. */
export const outcomeUnknownAdvice = {
	creation: mayHaveActed(
		'Check Job > Get Many for a job this request may have created before you create it again.',
	),
	retry: mayHaveActed(checkTheJobFirst),
	/** An unlock may have spent credits, so only the job's unlock state tells. */
	unlock: {
		lostMessage: (reason) =>
			`Unlock state unknown: the answer to the unlock request was lost (${reason})`,
		lostDescription: unlockUnknownAdvice,
		failedTitle: 'Unlock state unknown: the service failed while unlocking',
		failedDescription: unlockUnknownAdvice,
		checkFirst: checkUnlockFirst,
	},
} satisfies Record<string, UncertainOutcome>;

/** Why a file link is refused besides its expiry. */
const lockedOrForeign = 'needs Job > Unlock first; files of another account are never served';

/** Refusals with a meaning of their own on one route (spec: Errors); the route names the ones it answers. */
export const refusalAdvice = {
	notFailed: {
		title: "The job can't be retried",
		description:
			'Only failed jobs can be retried. A queued or processing job is still running ' +
			'(use Job > Wait for Completion); a completed job is finished and can be downloaded.',
	},
	sourceExpired: {
		title: "The job's source file has expired",
		description:
			"The service no longer keeps the uploaded source, so this job can't be retried. " +
			'Create a new job from the original file.',
	},
	notCompleted: {
		title: "The job can't be unlocked yet",
		description:
			'Only completed jobs can be unlocked. Run Job > Wait for Completion first; a ' +
			'failed job needs Job > Retry.',
	},
	fileLinkRefused: {
		title: 'The file link was refused',
		description:
			'Signed file links expire soon after the service hands them out. Job > Download ' +
			"(and 'Download Results') fetch fresh links from the job and use those, so take " +
			`the file from there, or run Job > Get for new links. A locked machine file also ${lockedOrForeign}.`,
	},
	/** Added to an unlock's 422. */
	unlockNeedsCredits:
		' Unlocking needs a subscription entitlement or enough credits on the account (see Account > Get Usage).',
} satisfies Record<string, Explanation | string>;

/** `this id and workflow`, or `these ids and workflows`. */
function idsAndWorkflows(count: number): string {
	return count === 1 ? 'this id and workflow' : 'these ids and workflows';
}

/** What to do with jobs the node created although the run then failed: carry on with them, never create them again. */
export function carryOnWithCreated(count: number): string {
	return (
		`do not create ${count === 1 ? 'it' : 'them'} again: use Job > Wait for Completion or ` +
		`Job > Get with ${idsAndWorkflows(count)}.`
	);
}

/** Advice about jobs the service has, naming them so the user can look them up. */
export const jobAdvice = {
	created: (ref: JobRef): string =>
		`The job was created (id ${ref.id}, workflow "${ref.workflow}"); ${carryOnWithCreated(1)}`,
	check: (ref: JobRef): string =>
		`Check the job with Job > Get (id ${ref.id}, workflow "${ref.workflow}").`,
	/** A refusal for the job's state (409), with the state the job was found in: the route's advice then fits it. */
	inState: (message: string, ref: JobRef, status: string): string =>
		`${message} (job ${ref.id} is ${status})`,
	/** A creation answer that may not name every job it made. */
	findUnnamed: 'Check Job > Get Many for any job the answer did not name.',
	/** A job paired with the wrong file: it exists, only its file is unknown. */
	pairByName: (ref: JobRef): string =>
		`The job exists: check it with Job > Get (id ${ref.id}, workflow "${ref.workflow}") and match ` +
		'it to its file by source name; do not create it again.',
	/** A job id neither workflow knows. */
	notFound: 'Check the ID, and that the credential belongs to the account that created the job.',
	notFoundAnywhere: (listingSize: number): string =>
		`It is not among the account's ${listingSize} most recent jobs, and neither the ` +
		`conversion nor the digitising route knows it. ${jobAdvice.notFound}`,
	/** A request of several files whose jobs came back in an order the names cannot pair. */
	mismatchedOrder: (ref: JobRef): string =>
		`The service answered the request of several files with its jobs in an order that does ` +
		`not match the files, and the names cannot pair them (two files share a name, or a job ` +
		`shows a name that was not sent). ${jobAdvice.pairByName(ref)}`,
	/** A creation answer with another number of jobs than files sent. */
	countMismatch: (created: string): string =>
		`Each source file should become one job, so the node cannot tell which file a job ` +
		`belongs to. ${created} ${jobAdvice.findUnnamed}`,
	/** A listing entry the node could not read. */
	unreadableEntry: 'Use Job > Get with its id, or check the service.',
	/** A job whose results are asked for before it completed. */
	notCompleted: (status: string, failureReason: string | null | undefined): string =>
		status === 'failed'
			? `It failed: ${failureReason ?? 'no reason given'}. Use Job > Retry, then wait for it.`
			: 'Use Job > Wait for Completion before downloading.',
	outputsLocked:
		'Run Job > Unlock first (it spends a subscription entitlement or credits), or ' +
		'download only the preview, which is watermarked while locked.',
	/** A file link missing from a job. */
	noLink:
		'A locked machine file has no link until Job > Unlock; otherwise the service sent ' +
		'a link the node cannot read. Only this file is affected.',
	/** A link taken from the job moments ago was refused too. */
	refusedAfterRefetch:
		'The node already fetched the job again for a fresh link, and that link was refused ' +
		`too. A locked machine file ${lockedOrForeign}; otherwise try again later.`,
};

/** A request of several files refused by an account on limited free processing (one source per request). */
export function oneFilePerRequestAdvice(combined: boolean, files: number): string {
	const change = combined
		? `Set Options > Batching to "One Request per Item" (it is "Combine Items", which sent ${files} files together)`
		: `Give each item a single file: this item sent ${files}, one per Input Binary Field`;
	return `${change}, or add credits or a subscription to the account.`;
}

/** Hints above the node's output about the jobs it returns. */
export const hintAdvice = {
	retryFailedJob: 'Fix the source if the reason points at it, then use Job > Retry.',
	retryFailedJobs:
		'Each item has failureCode and failureReason; fix the sources they point at, then use Job > Retry.',
	checkWarnings: 'Check the design before you stitch it.',
	unlock:
		'Use Job > Unlock (it spends a subscription entitlement or credits), then download the files.',
};

/** `"a", "b" or "c"`: the values a parameter takes, quoted as the user types them. */
function quotedChoices(values: readonly string[]): string {
	const quoted = values.map((value) => `"${value}"`);
	return quoted.length > 1
		? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
		: quoted.join('');
}

/** What to put in a parameter the node could not use. */
export const parameterAdvice = {
	noInputBinaryFields: 'Name the binary field(s) holding the source files, for example "data".',
	missingBinaryField: (available: readonly string[]): string =>
		available.length
			? `Its binary fields are: ${available.join(', ')}. Set 'Input Binary Fields' to one of them.`
			: 'The item carries no binary data. Read or download the file in an earlier node.',
	tooManySources: "Split the item's binary fields over several items",
	noOutputFormat: 'Pick one from the list, or map a format key such as exp.',
	noFiles: "Pick one or more of Output Files, Preview and Source in 'Files'.",
	timeout: (defaultSeconds: number): string =>
		`Set 'Timeout (Seconds)' to how long to wait in total, e.g. ${defaultSeconds}.`,
	stillRunning: "Raise 'Timeout (Seconds)' to wait longer.",
	notAJobLink:
		'A job link looks like {base URL}/jobs/conversion/{job ID} (or /jobs/digitising/…). Use By ID for a bare ID.',
	notAJobId: 'Pick the job from the list, or map the id of an earlier item, e.g. {{ $json.id }}.',
	baseUrl: 'Set it to the v1 root of the API, for example http://127.0.0.1:8787/api/v1.',
	noCredential: {
		message: 'Choose an Embroidery API credential first',
		description:
			"Pick one (or create one) in 'Credential to connect with' at the top of the node; " +
			'the lists load from the service as soon as one is chosen.',
	},
};

/** File > Download's Signed URL parameter. */
export const signedUrlAdvice = {
	empty:
		"Map a job's outputUrl or previewUrl, e.g. {{ $json.outputUrl }}: from version 3 Job " +
		'> Get, Job > Get Many, Job > Unlock and Job > Wait for Completion return them with ' +
		"'Simplify' on; a raw job carries them inside its file entries, as downloadUrl and previewUrl.",
	unreadable:
		'Use a complete http(s) downloadUrl or previewUrl of a job exactly as the service ' +
		'returned it; fetch the job again (Job > Get) for a fresh one.',
	notComplete: 'Use the downloadUrl or previewUrl of a job exactly as the service returned it.',
	foreignHost:
		'Signed file URLs come from the same service as the credential; the node will not ' +
		'send your API key anywhere else.',
};

/** The Embroidery Trigger's notes, sample and parameters. */
export const triggerAdvice = {
	noEvents: {
		message: 'Choose at least one event to trigger on',
		description: 'Select Job Completed, Job Failed or both under Trigger On.',
	},
	eventValues: (endings: readonly string[]): string =>
		`Use ${endings.map((ending) => `"${ending}"`).join(', ')} or both.`,
	workflowValues: (workflows: readonly string[]): string =>
		`Use ${quotedChoices(['both', ...workflows])}.`,
	/** Added to a poll's failure when it is reported: how the trigger goes on. */
	keepsPolling:
		'The trigger keeps polling and emits what it missed once the service answers; this is ' +
		'reported again if it still fails in 24 hours.',
	lockedOutputs:
		'The machine files stay locked until the job is unlocked (Embroidery node: Job > Unlock, ' +
		'which spends a subscription entitlement or credits). The preview is watermarked until then.',
	noSampleJob:
		'Create a job with the Embroidery node (Job > Create) and let it finish, or widen ' +
		'Trigger On and Workflow, then test again.',
};

/** Advice after n8n's Retry On Fail ran the node again over a request an earlier try sent without an answer. */
export const earlierTryAdvice = {
	create: (made: string): string =>
		`n8n's Retry On Fail ran the node again, and the service may already have made the job, ` +
		`so sending the file again could make and charge a second one. Look for it with Job > ` +
		`Get Many and carry on with Job > Wait for Completion; to make a new job anyway, run the ` +
		`workflow again.${made}`,
	retry: (ref: JobRef, reason: string): string =>
		`n8n's Retry On Fail ran the node again (${reason}), and the service may already have ` +
		`queued the job again. Check it with Job > Get (id ${ref.id}, workflow "${ref.workflow}"); ` +
		`retry it once more only if it still shows failed.`,
	unlock: (ref: JobRef): string =>
		`n8n's Retry On Fail ran the node again. The job does not show as unlocked yet, but the ` +
		`earlier request may still have spent an entitlement or credits. Check the job with Job ` +
		`> Get (id ${ref.id}, workflow "${ref.workflow}", field downloadsUnlocked) and unlock it ` +
		`with Job > Unlock only if it is still locked.`,
};

/** What to do about a Source URL the node could not fetch or use (Job > Create from a URL). */
export const sourceUrlAdvice = {
	incomplete:
		'Give a link to the file starting with http:// or https://, for example https://example.com/designs/logo.png.',
	notHttp: 'Give a link to the file starting with http:// or https://.',
	unresolvedInTime: "Check the link and that the n8n server's name service answers.",
	unresolved:
		"Check the link; where n8n's outbound network policy refuses the address, the n8n " +
		'administrator decides which hosts workflows may reach.',
	privateNetwork:
		'Links to loopback, private (RFC 1918), link-local and cloud metadata, carrier-grade NAT, ' +
		'unique-local and other non-public addresses are refused by default, so a workflow cannot ' +
		"reach the n8n server's own network. If the file lives on your intranet and you trust where " +
		"this workflow's links come from, turn on Options > Allow Private Network Addresses.",
	noAnswer: 'Check that the link is reachable from the n8n server and that its server is up.',
	unreachable: 'Check that the link is reachable from the n8n server.',
	stalled:
		'Check that the link is reachable from the n8n server; a server that stalls mid-file cannot be read.',
	tooSlow:
		'Link a server that delivers the file faster, or download it in an earlier node ' +
		'and use Source: Binary Field.',
	redirectRefused: 'Link the file itself.',
	notTheFile: 'The link must lead to the file itself and be readable without logging in.',
	tooLarge: 'Link a smaller file.',
	empty: 'Link a file with content.',
	imageForConversion:
		'Link the machine file itself (DST, PES, JEF, EXP, VP3, ...), or choose the ' +
		'digitising workflow to turn artwork into stitches.',
	pageForConversion:
		'Link the machine file itself (DST, PES, JEF, EXP, VP3, ...), not a web page or ' +
		'document about it: the link must download the file.',
	notArtwork: `Link a ${artworkTypesOr()} image, or use the conversion workflow for machine files.`,
};
