/** What n8n's request helper answers with `returnFullResponse`, and how its headers and small bodies are read. */
export interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

export function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** Error bodies of streamed requests are read (up to 64 KB) so their message can be shown. */
export async function readSmallBody(body: unknown): Promise<unknown> {
	if (body === null || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return body;
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
		const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
		chunks.push(bytes);
		size += bytes.length;
		if (size >= 65_536) break;
	}
	discardBody(body);
	const text = new TextDecoder().decode(Buffer.concat(chunks));
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Ends a streamed body that will not be read (a redirect's, a refused file's). */
export function discardBody(body: unknown): void {
	(body as { destroy?: () => void } | null)?.destroy?.();
}
