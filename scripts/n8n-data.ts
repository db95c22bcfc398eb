/** What n8n's CLI and REST API take and give: workflow and credential exports, and run data. */

export interface CredentialExport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	notes?: string;
}

export interface WorkflowExport {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

export interface BinaryReference {
	id?: string;
	data?: string;
	fileName?: string;
	fileExtension?: string;
	mimeType: string;
	fileSize?: string;
}

export interface ExecutionItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryReference>;
}

export interface ExecutionError {
	message: string;
	description?: string | null;
	node?: { name: string };
	httpCode?: string | null;
}

/** The part of n8n's IRun that `n8n execute --rawOutput` prints and tests read. */
export interface WorkflowRun {
	status: string;
	data: {
		resultData: {
			error?: ExecutionError;
			lastNodeExecuted?: string;
			runData: Record<
				string,
				Array<{ data?: { main: Array<ExecutionItem[] | null> }; error?: ExecutionError }>
			>;
		};
	};
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** The first line that is exactly `{` up to the next line that is exactly `}`: n8n's JSON dump. */
export function parseRawOutput(output: string): WorkflowRun | undefined {
	const lines = output.split('\n');
	const start = lines.indexOf('{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start);
	if (end < 0) return undefined;
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as WorkflowRun;
}

/** n8n stores run data in the "flatted" encoding: a JSON table where every string and object is an index. */
export function parseFlatted(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = table[index];
		if (typeof value !== 'object' || value === null) {
			revived.set(index, value);
			return value;
		}
		const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		revived.set(index, copy);
		for (const [key, entry] of Object.entries(value)) {
			(copy as Record<string, unknown>)[key] =
				typeof entry === 'string' ? revive(Number(entry)) : entry;
		}
		return copy;
	};
	return revive(0);
}

/** Items a node produced on its last run (first output), or [] when it did not run. */
export function nodeItems(run: WorkflowRun, nodeName: string, output = 0): ExecutionItem[] {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs?.length) return [];
	return runs[runs.length - 1].data?.main[output] ?? [];
}
