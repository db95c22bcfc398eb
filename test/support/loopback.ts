/**
 * Test servers on loopback: one way to start a Node server on a free port of 127.0.0.1, name its
 * origin and the service base URL under it, and close it without waiting for idle keep-alive sockets.
 */
import type { Server as HttpServer } from 'node:http';
import type { Server as TcpServer, AddressInfo } from 'node:net';

export interface Loopback {
	port: number;
	/** `http://127.0.0.1:<port>` */
	origin: string;
	/** The service's base URL when the server stands in for it: `<origin>/api/v1`. */
	baseUrl: string;
	/** Closes the server, dropping open connections first. */
	close(): Promise<void>;
}

export async function listenOnLoopback(server: HttpServer | TcpServer): Promise<Loopback> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;
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
