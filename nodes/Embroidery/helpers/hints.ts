import type { INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

/** More jobs than this with warnings are summed up in one last hint, so the output pane stays readable. */
const maxJobHints = 10;

function warningsOf(item: INodeExecutionData): string[] {
	const warnings = item.json.warnings;
	return Array.isArray(warnings) ? warnings.filter((warning): warning is string => typeof warning === 'string' && warning !== '') : [];
}

/**
 * The execution hints the editor shows above the node's output: each job's warnings, which the service
 * asks to be shown to users (compatibility or production notes). Pure: items in, hints out.
 */
export function hintsForItems(items: INodeExecutionData[]): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	const withWarnings = items.filter((item) => warningsOf(item).length > 0);
	for (const item of withWarnings.slice(0, maxJobHints)) {
		const job = typeof item.json.id === 'string' ? `Job ${item.json.id}` : 'A job';
		hints.push({
			message: `${job}: ${warningsOf(item).join(' ')}`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	if (withWarnings.length > maxJobHints) {
		hints.push({
			message: `${withWarnings.length - maxJobHints} more jobs have warnings; see "warnings" on their items.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return hints;
}
