/**
 * File names that come from elsewhere (a server's Content-Disposition, a link's path, the service's own
 * suggestion), reduced to one safe segment before n8n shows or saves them: the one sanitiser of the node.
 */

/** At most this many characters are kept, from the end so the extension stays. */
const maxFileNameLength = 200;

/**
 * C0 and C1 controls, DEL, and the bidi controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069)
 * that can make an `.exe` show as a `.png`.
 */
function isUnsafeChar(char: string): boolean {
	const code = char.codePointAt(0) ?? 0;
	return (
		code < 0x20 ||
		(code >= 0x7f && code <= 0x9f) ||
		code === 0x061c ||
		code === 0x200e ||
		code === 0x200f ||
		(code >= 0x202a && code <= 0x202e) ||
		(code >= 0x2066 && code <= 0x2069)
	);
}

/**
 * A suggested file name reduced to its last path segment without control characters, so it can never point
 * outside the binary store, break a header or disguise its extension; undefined when nothing is left.
 */
export function safeFileName(name: string | undefined): string | undefined {
	if (name === undefined) return undefined;
	const lastSegment = name.split(/[/\\]/).pop() ?? '';
	const clean = [...lastSegment]
		.filter((char) => !isUnsafeChar(char))
		.join('')
		.trim();
	if (clean === '' || /^\.+$/.test(clean)) return undefined;
	return [...clean].slice(-maxFileNameLength).join('');
}

/** The name a Content-Disposition header suggests: filename* (RFC 5987) before filename, as browsers read it. */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const encoded = /filename\*\s*=\s*(?:[\w-]+'[^']*')?("?)([^";]+)\1/i.exec(disposition);
	if (encoded) {
		try {
			return safeFileName(decodeURIComponent(encoded[2].trim()));
		} catch {
			// A malformed encoding falls back to the plain parameter.
		}
	}
	const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
	return safeFileName(plain?.slice(1).find(Boolean)?.trim());
}

/** The last path segment of a URL, used as a file name when the server suggests none. */
export function fileNameFromUrl(url: string | URL, fallback: string): string {
	try {
		const last = new URL(url).pathname.split('/').filter(Boolean).pop();
		return (last ? safeFileName(decodeURIComponent(last)) : undefined) ?? fallback;
	} catch {
		return fallback;
	}
}
