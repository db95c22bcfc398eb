import { clock } from './clock';
import { limitedStream } from './streamLimits';
import type { ByteStream } from './streamLimits';

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

/**
 * Error bodies of streamed requests are read (up to 64 KB) so their message can be shown, within `withinMs` in
 * all: a body that stalls or trickles is given up (`stopRequest` ends the request under it), and the answer
 * is shown by its status alone (undefined).
 */
export async function readSmallBody(
	body: unknown,
	withinMs: number,
	stopRequest: () => void,
): Promise<unknown> {
	if (body === null || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return body;
	const startedAt = clock.now();
	const late = () => new Error(`The error body did not arrive within ${withinMs} ms`);
	const limited = limitedStream(
		body as ByteStream,
		{ idle: { ms: withinMs, error: late }, total: { ms: withinMs, startedAt, error: late } },
		() => {
			stopRequest();
			discardBody(body);
		},
	);
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for await (const chunk of limited.stream as AsyncIterable<Uint8Array | string>) {
			const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
			chunks.push(bytes);
			size += bytes.length;
			if (size >= 65_536) break;
		}
	} catch {
		return undefined;
	} finally {
		discardBody(body);
	}
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
