/**
 * Job uploads written by hand, for the tests of what the sandbox does while a body is still on its way (cut
 * off, sent slowly, refused mid-way): fetch sends a body whole, and refuses one shorter than it announces.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';

/** Starts a POST whose Content-Length announces `declaredBytes`; the caller writes the body. */
export function announcedPost(
	url: string,
	headers: Record<string, string>,
	declaredBytes: number,
	onResponse?: (response: IncomingMessage) => void,
): ClientRequest {
	const target = new URL(url);
	return httpRequest(
		{
			host: target.hostname,
			port: target.port,
			path: target.pathname,
			method: 'POST',
			headers: { ...headers, 'content-length': String(declaredBytes) },
		},
		onResponse,
	);
}

/** One plain field of a multipart form under `boundary`, as it goes on the wire. */
export function formField(boundary: string, name: string, value: string): string {
	return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}
