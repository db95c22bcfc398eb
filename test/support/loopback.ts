/**
 * Test servers on loopback: one way to start a Node server on a free port of 127.0.0.1, name its
 * origin and the service base URL under it, and close it without waiting for idle keep-alive sockets.
 */
import type { ClientRequest, IncomingMessage, Server as HttpServer } from 'node:http';
import type { Server as TcpServer, AddressInfo } from 'node:net';

export interface Loopback {
	port: number;
	/** `http://127.0.0.1:<port>`, or the `host` asked for */
	origin: string;
	/** The service's base URL when the server stands in for it: `<origin>/api/v1`. */
	baseUrl: string;
	/** Closes the server, dropping open connections first. */
	close(): Promise<void>;
}

/**
 * Listens on a free loopback port. `keepAliveMs` shortens how long an idle kept-alive connection stays
 * open (for proxies standing between the node and the sandbox, so closing never waits on them); `host`
 * picks another loopback address than 127.0.0.1 (`::1`, or any of 127.0.0.0/8, which Linux routes to lo).
 */
export async function listenOnLoopback(
	server: HttpServer | TcpServer,
	options: { keepAliveMs?: number; host?: string } = {},
): Promise<Loopback> {
	if (options.keepAliveMs !== undefined && 'keepAliveTimeout' in server)
		server.keepAliveTimeout = options.keepAliveMs;
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return {
		port,
		origin,
		baseUrl: `${origin}/api/v1`,
		async close() {
			if ('closeAllConnections' in server) server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Sends a proxied request's body on to the upstream request; when the upstream fails, the client's
 * connection is dropped too.
 */
export function forwardBody(incoming: IncomingMessage, upstream: ClientRequest): void {
	upstream.on('error', () => incoming.socket.destroy());
	incoming.pipe(upstream);
}
