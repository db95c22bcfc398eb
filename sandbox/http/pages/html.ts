/** Markup that is already safe to send: built by `html`, never from a visitor's or a database's text. */
export class SafeHtml {
	constructor(readonly text: string) {}

	toString(): string {
		return this.text;
	}
}

const entities: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => entities[character]);
}

/**
 * The pages' one template function: every interpolated value is escaped (text and attribute values
 * alike) unless it is SafeHtml from another `html` call; lists are joined; null, undefined and false
 * render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
	let text = strings[0];
	values.forEach((value, index) => {
		text += render(value) + strings[index + 1];
	});
	return new SafeHtml(text);
}

function render(value: unknown): string {
	if (value === null || value === undefined || value === false) return '';
	if (value instanceof SafeHtml) return value.text;
	if (Array.isArray(value)) return value.map(render).join('');
	return escapeHtml(String(value));
}
