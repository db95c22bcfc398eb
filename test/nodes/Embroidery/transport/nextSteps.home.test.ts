/**
 * Every next step the node gives is worded in nextSteps.ts: this scans the package's source (nodes/, read with
 * TypeScript's parser) for advice written anywhere else. Advice is a string that tells the user what to do (a
 * sentence starting with Check, Use, Set, Pick, ...), or a literal text given as an error's description. n8n's
 * parameter descriptions (objects with a displayName, an option value or an action) and the AI tool's texts are
 * not advice: they describe the editor and the operations.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const repoRoot = resolve(__dirname, '../../../..');
const home = 'nodes/Embroidery/transport/nextSteps.ts';

/** A sentence that tells the user what to do next, at the start of the text or of one of its sentences. */
const verbs =
	'Add|Carry|Check|Choose|Create|Download|Fix|Give|Link|Look|Map|Name|Pick|Point|Raise|Read|Run|Select|Set|' +
	'Split|Take|Try|Turn|Use|Wait|Widen';
const nextStep = new RegExp(`(?:^|[.:;!?)]\\s+|, or |, then )(${verbs})\\b`);

/** The AI tool's texts: what a model is told about an operation, not advice to the user. */
const toolText = /tool|^version3JobAnswer$|^jobFieldsToFill$/i;

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const nameOf = (node: ts.Node): string | undefined => {
	const name = (node as { name?: ts.Node }).name;
	return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
};

/** An n8n description of a parameter, an option or an operation. */
function describesEditor(object: ts.ObjectLiteralExpression): boolean {
	return object.properties.some((property) =>
		['displayName', 'value', 'action'].includes(nameOf(property) ?? ''),
	);
}

function exempt(node: ts.Node): boolean {
	for (let parent = node.parent; parent; parent = parent.parent) {
		if (ts.isObjectLiteralExpression(parent) && describesEditor(parent)) return true;
		// A parameter list, its entries built from others ({ ...jobRefFields[0], description }).
		if (
			ts.isVariableDeclaration(parent) &&
			/\bINodeProperties\b/.test(parent.type?.getText() ?? '')
		)
			return true;
		if (
			(ts.isVariableDeclaration(parent) ||
				ts.isFunctionDeclaration(parent) ||
				ts.isPropertyAssignment(parent)) &&
			toolText.test(nameOf(parent) ?? '')
		)
			return true;
	}
	return false;
}

const isText = (node: ts.Node): node is ts.LiteralLikeNode =>
	ts.isStringLiteral(node) ||
	ts.isNoSubstitutionTemplateLiteral(node) ||
	ts.isTemplateLiteralToken(node);

/** Words of its own in an expression (not only a separator between texts from elsewhere). */
function ownWords(expression: ts.Node): boolean {
	let found = false;
	const visit = (node: ts.Node): void => {
		if (isText(node) && /[A-Za-z]{2}/.test(node.text)) found = true;
		// What a call or property access computes comes from elsewhere; only the text written here counts.
		if (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node)) return;
		ts.forEachChild(node, visit);
	};
	visit(expression);
	return found;
}

/** The places in one file's source where advice is written; `file` names it in the findings. */
export function adviceIn(file: string, text: string): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const at = (node: ts.Node, what: string) =>
		found.push(
			`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`,
		);
	const visit = (node: ts.Node): void => {
		if (isText(node) && nextStep.test(node.text) && !exempt(node))
			at(node, `"${node.text.slice(0, 80)}"`);
		const description =
			ts.isPropertyAssignment(node) && nameOf(node) === 'description'
				? node.initializer
				: ts.isBinaryExpression(node) &&
					  node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
					  ts.isPropertyAccessExpression(node.left) &&
					  node.left.name.text === 'description'
					? node.right
					: undefined;
		if (description && ownWords(description) && !exempt(node))
			at(node, `a description written here: ${description.getText(source).slice(0, 80)}`);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe("the node's next steps have one home", () => {
	test(`no advice is written in nodes/ outside ${home}`, () => {
		const elsewhere = sourceFiles(join(repoRoot, 'nodes'))
			.map((file) => relative(repoRoot, file))
			.filter((file) => file !== home)
			.flatMap((file) => adviceIn(file, readFileSync(join(repoRoot, file), 'utf8')));
		expect(elsewhere).toEqual([]);
	});

	test('the scan finds advice in an error, in a message and in an error description, but not in the editor', () => {
		const found = adviceIn(
			'sample.ts',
			[
				"throw new NodeOperationError(node, 'Choose a format first');",
				"throw new NodeOperationError(node, 'Bad', { description: 'The file is gone.' });",
				"throw new NodeOperationError(node, 'Bad', { description: `Got ${n}. Set 'Width' lower.` });",
				'error.description = `${lasting} It will poll again.`;',
				'error.description = `${lasting} ${triggerAdvice.keepsPolling}`;',
				"const p = { displayName: 'Width', description: 'Use millimetres' };",
				"const fields: INodeProperties[] = [{ ...width, description: 'Use millimetres' }];",
				"const toolDescription = 'Use it to convert a file.';",
				"throw new NodeOperationError(node, 'Bad', { description: parameterAdvice.noFiles });",
			].join('\n'),
		);
		expect(found.map((finding) => finding.split(':')[1])).toEqual(['1', '2', '3', '3', '4']);
	});
});
