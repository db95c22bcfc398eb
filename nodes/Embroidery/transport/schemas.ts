import { z } from 'zod';

// Written from the service spec (embroidery-api.md); the TypeScript types below are inferred from these.

/**
 * How many jobs `GET /jobs` answers: the account's most recent ones, newest first (spec: Limits,
 * jobs listing size).
 */
export const jobsListingSize = 50;

export const jobStatuses = ['queued', 'processing', 'completed', 'failed'] as const;
export const workflows = ['conversion', 'digitising'] as const;

export const JobStatusSchema = z.enum(jobStatuses);
export const WorkflowSchema = z.enum(workflows);
export const JobIdSchema = z.string().length(26, 'a job id has exactly 26 characters');

const nullableDateTime = z.string().nullable().optional();

/** An object the node passes on without reading: any fields, all kept. */
const openObject = z.object({}).passthrough();

export const FormatSchema = z
	.object({
		format: z.string(),
		label: z.string(),
		readable: z.boolean(),
		writable: z.boolean(),
		warning: z.string().nullable(),
	})
	.passthrough();

export const FormatsResponseSchema = z
	.object({
		data: z.array(FormatSchema),
		artworkInputs: z.array(z.string()),
	})
	.passthrough();

export const FreeUsageSchema = z
	.object({
		limited: z.boolean(),
		previewRemaining: z.number().int(),
		creditBalance: z.number().int(),
		digitisingCreditCost: z.number().int(),
		conversionCreditCost: z.number().int(),
		dailyLimit: z.number().int().nullable().optional(),
		dailyUsed: z.number().int().nullable().optional(),
		dailyRemaining: z.number().int().nullable().optional(),
		monthlyLimit: z.number().int().nullable().optional(),
		monthlyUsed: z.number().int().nullable().optional(),
		monthlyRemaining: z.number().int().nullable().optional(),
		dailyResetsAt: nullableDateTime,
		monthlyResetsAt: nullableDateTime,
		subscriptionPlanSlug: z.string().nullable().optional(),
		subscriptionRenewsAt: nullableDateTime,
	})
	.passthrough();

export const UsageResponseSchema = z.object({ freeUsage: FreeUsageSchema }).passthrough();

export const JobSummarySchema = z
	.object({
		id: JobIdSchema,
		status: JobStatusSchema,
		workflow: WorkflowSchema,
	})
	.passthrough();

export const JobAcceptedSchema = z
	.object({
		message: z.string(),
		job: JobSummarySchema,
		jobs: z.array(JobSummarySchema),
		// Passed on to the item, never read: a service that sends fewer fields (or none) still works.
		freeUsage: openObject.optional(),
	})
	.passthrough();

export const PrivateFileSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		extension: z.string().optional(),
		mimeType: z.string().optional(),
		size: z.number().int().optional(),
		checksum: z.string().optional(),
		expiresAt: z.string().optional(),
		// Read as text and checked where a link is used (helpers/fileLinks.ts): one link the node cannot parse
		// costs only its own file, never the job or the listing it came in.
		downloadUrl: z.string().nullable(),
		previewUrl: z.string().nullable(),
	})
	.passthrough();

export const JobSchema = z
	.object({
		id: JobIdSchema,
		status: JobStatusSchema,
		provider: z.string().nullable().optional(),
		formats: z.array(z.string()),
		widthMm: z.number().optional(),
		colourCount: z.number().int().optional(),
		attemptCount: z.number().int().optional(),
		metrics: openObject.nullable().optional(),
		warnings: z.array(z.string()),
		failureCode: z.string().nullable().optional(),
		failureReason: z.string().nullable().optional(),
		downloadsUnlocked: z.boolean(),
		unlock: openObject.nullable().optional(),
		source: PrivateFileSchema.optional(),
		outputs: z.array(openObject).optional(),
		artifacts: z.array(openObject).optional(),
		events: z.array(openObject).optional(),
		createdAt: nullableDateTime,
		completedAt: nullableDateTime,
	})
	.passthrough();

export const JobResponseSchema = z.object({ job: JobSchema }).passthrough();

export const RetryResponseSchema = z
	.object({ message: z.string(), job: JobSummarySchema })
	.passthrough();

export const UnlockResponseSchema = z.object({ message: z.string(), job: JobSchema }).passthrough();

/**
 * A listing's file (spec: PrivateFile), checked field by field: its links are read as anything and judged where
 * used (helpers/fileLinks.ts notes an unreadable one in `fileErrors`); a field of another type is left out.
 */
const ListedFileSchema = PrivateFileSchema.extend({
	id: z.string().optional(),
	name: z.string().optional(),
	downloadUrl: z.unknown(),
	previewUrl: z.unknown(),
}).passthrough();

export const JobListItemSchema = z
	.object({
		id: JobIdSchema,
		kind: WorkflowSchema,
		title: z.string().optional(),
		status: JobStatusSchema,
		formats: z.array(z.string()),
		source: ListedFileSchema.optional(),
		preview: ListedFileSchema.nullable().optional(),
		output: ListedFileSchema.nullable().optional(),
		metrics: openObject.nullable().optional(),
		failureReason: z.string().nullable().optional(),
		downloadsUnlocked: z.boolean(),
	})
	.passthrough();

/** Without these a listing entry is no job the node can act on: one that is unusable leaves its entry out. */
const entryCoreFields: readonly string[] = ['id', 'kind', 'status', 'downloadsUnlocked'];
const listedFileFields: readonly string[] = ['source', 'preview', 'output'];
/** What an unusable required field becomes; any other unusable field is left out. */
const fallbacks: Record<string, unknown> = { formats: [] };

/** A listing entry left out: where it was in the listing, its id when it had one, and why. */
export interface LeftOutEntry {
	position: number;
	id?: string;
	problem: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry without its field `field` (or only the file field `field.inner`), or with the field's fallback. */
function withoutField(
	entry: Record<string, unknown>,
	field: string,
	inner: string | undefined,
): Record<string, unknown> {
	const file = entry[field];
	if (inner !== undefined && isRecord(file))
		return {
			...entry,
			[field]: Object.fromEntries(Object.entries(file).filter(([key]) => key !== inner)),
		};
	const kept = Object.fromEntries(Object.entries(entry).filter(([key]) => key !== field));
	return field in fallbacks ? { ...kept, [field]: fallbacks[field] } : kept;
}

/**
 * One listing entry, field by field: each unusable field is left out (a file's field alone, not the file) and
 * named in `unread`; an entry whose core fields are unusable is not read at all (`problem`).
 */
function readListingEntry(
	raw: unknown,
): { item: JobListItem; unread: string[] } | { problem: string } {
	let entry = raw;
	const unread: string[] = [];
	for (let round = 0; round < 50; round++) {
		const parsed = JobListItemSchema.safeParse(entry);
		if (parsed.success) return { item: parsed.data, unread };
		const issue = parsed.error.issues[0];
		const [field, inner] = issue.path;
		if (typeof field !== 'string' || entryCoreFields.includes(field) || !isRecord(entry))
			return { problem: describeIssue(issue) };
		unread.push(`${pathOf(issue.path)}: ${issue.message}`);
		const fileField = listedFileFields.includes(field) && typeof inner === 'string';
		entry = withoutField(entry, field, fileField ? inner : undefined);
	}
	return { problem: 'too many fields of an unexpected type' };
}

export const JobsListResponseSchema = z
	.object({
		// Each entry is read on its own (readListingEntry): one off the spec never costs the listing.
		data: z.array(z.unknown()).max(jobsListingSize),
		// Not read by the node.
		freeUsage: openObject.optional(),
	})
	.passthrough()
	.transform((answer) => {
		const data: JobListItem[] = [];
		/** The fields left out of a listed job, by its id. */
		const unreadFields: Record<string, string[]> = {};
		const leftOut: LeftOutEntry[] = [];
		answer.data.forEach((raw, position) => {
			const read = readListingEntry(raw);
			if ('problem' in read) {
				const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id : undefined;
				leftOut.push({ position, ...(id ? { id } : {}), problem: read.problem });
				return;
			}
			data.push(read.item);
			if (read.unread.length > 0) unreadFields[read.item.id] = read.unread;
		});
		return { ...answer, data, unreadFields, leftOut };
	});

export const ApiErrorBodySchema = z.object({ message: z.string() }).passthrough();

export const ValidationErrorBodySchema = z
	.object({
		message: z.string(),
		errors: z.record(z.array(z.string())),
	})
	.passthrough();

export type JobStatus = z.infer<typeof JobStatusSchema>;
export type Workflow = z.infer<typeof WorkflowSchema>;
export type Format = z.infer<typeof FormatSchema>;
export type FormatsResponse = z.infer<typeof FormatsResponseSchema>;
export type FreeUsage = z.infer<typeof FreeUsageSchema>;
export type JobSummary = z.infer<typeof JobSummarySchema>;
export type JobAccepted = z.infer<typeof JobAcceptedSchema>;
export type PrivateFile = z.infer<typeof PrivateFileSchema>;
export type Job = z.infer<typeof JobSchema>;
export type JobListItem = z.infer<typeof JobListItemSchema>;
export type JobsListResponse = z.output<typeof JobsListResponseSchema>;
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;

/** How a job ends: the service does no more work on it, so clients stop polling (spec: Events). */
export const jobEndings = ['completed', 'failed'] as const satisfies readonly JobStatus[];
export type JobEnding = (typeof jobEndings)[number];

export function isEnded(status: JobStatus): status is JobEnding {
	return (jobEndings as readonly string[]).includes(status);
}

export function isJobStatus(value: unknown): value is JobStatus {
	return typeof value === 'string' && (jobStatuses as readonly string[]).includes(value);
}

export function isWorkflow(value: unknown): value is Workflow {
	return typeof value === 'string' && (workflows as readonly string[]).includes(value);
}

/** A zod path the way a user reads it: `data[0].source.size`. */
function pathOf(path: Array<string | number>): string {
	return path.reduce<string>(
		(text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key),
		'',
	);
}

function describeIssue(issue: z.ZodIssue): string {
	const path = pathOf(issue.path);
	const isMissing = issue.code === 'invalid_type' && issue.received === 'undefined';
	if (isMissing) return `missing required field "${path}"`;
	return `field "${path || '(body)'}": ${issue.message}`;
}

/** Names the first problem of a failed parse the way a user can act on: `data[0].writable: Required`. */
export function describeSchemaProblem(error: z.ZodError): string {
	const issue = error.issues[0];
	return issue ? describeIssue(issue) : 'unexpected shape';
}
