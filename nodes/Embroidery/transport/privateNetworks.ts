import type { IExecuteFunctions } from 'n8n-workflow';

import { addressClassOf } from './addressClass';
import type { AddressClass } from './addressClass';

/**
 * Which addresses a Source URL may reach. By default only the public internet: a workflow (or whoever feeds
 * its URLs) must not make n8n fetch from its own machine, its network or a cloud's metadata service and
 * upload the answer. The check is made on the address connected to, not only on the name in the link:
 *
 * - an IP address in the link is judged as written (WHATWG's URL has already normalised `0x7f.1`, `2130706433`);
 * - a host name is resolved first (n8n 2.x lends nodes its resolver, `getSecureEgressFilter().createSecureLookup()`,
 *   which also applies the instance's own SSRF policy when one is on); every address it gives is judged, and
 *   the request is pinned to the first one (the link's host goes in the Host header and the TLS server name),
 *   so a second, different answer (DNS rebinding) is never used;
 * - where n8n lends no resolver (1.x), the address of the socket that answered is judged before a byte of
 *   the body is read; the request itself has then reached that address, its answer goes nowhere.
 */

/** Resolves a host name to its IP addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

let replacementResolver: Resolver | null | undefined;

/**
 * Puts another resolver in force (tests map names to loopback with it), or none at all (null: as on n8n 1.x,
 * where only the connected socket is judged), and returns what puts the previous one back.
 */
export function useResolver(resolver: Resolver | null): () => void {
	const previous = replacementResolver;
	replacementResolver = resolver;
	return () => {
		replacementResolver = previous;
	};
}

let publicStandIn: string | undefined;

/**
 * Test-only, like `useResolver`: lets one loopback address (127.0.0.2, say) pass as a public server, so a test
 * can serve a first hop that the policy allows and see what happens to the hops its redirects lead to (tests
 * reach loopback only). Returns what undoes it. No node parameter leads here.
 */
export function treatLoopbackAsPublic(address: string): () => void {
	if (addressClassOf(address) !== 'loopback')
		throw new Error(`${address} is not a loopback address; only one can stand for a public server`);
	const previous = publicStandIn;
	publicStandIn = address;
	return () => {
		publicStandIn = previous;
	};
}

/** The address's class as the policy sees it: the test's public stand-in counts as public. */
function classOf(address: string): AddressClass | null | undefined {
	return address === publicStandIn ? null : addressClassOf(address);
}

type LookupAll = (
	hostname: string,
	options: { all: true },
	callback: (error: Error | null, addresses: Array<{ address: string }> | string) => void,
) => void;

/** n8n's own resolver, where n8n lends it to nodes (2.x); undefined elsewhere. */
function n8nResolver(context: IExecuteFunctions): Resolver | undefined {
	const helpers = context.helpers as Partial<
		Pick<IExecuteFunctions['helpers'], 'getSecureEgressFilter'>
	>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	const lookup = helpers.getSecureEgressFilter().createSecureLookup() as unknown as LookupAll;
	return async (hostname) =>
		await new Promise<string[]>((resolve, reject) => {
			lookup(hostname, { all: true }, (error, addresses) => {
				if (error) reject(error);
				else
					resolve(
						typeof addresses === 'string' ? [addresses] : addresses.map((one) => one.address),
					);
			});
		});
}

export function resolverFor(context: IExecuteFunctions): Resolver | undefined {
	if (replacementResolver === null) return undefined;
	return replacementResolver ?? n8nResolver(context);
}

/** An address the policy refuses: where it was met, which address, of what kind. */
export interface RefusedAddress {
	address: string;
	kind: AddressClass | 'unconfirmed';
	/** Where the address was seen: written in the link, answered by the resolver, or on the socket that answered. */
	seenIn: 'link' | 'resolver' | 'socket';
}

/** The request for one hop: where to connect (pinned), and what the server must still see as its host. */
export interface CheckedHop {
	/** The URL to request: the link itself, or with its host replaced by the checked address. */
	url: URL;
	/** Host header and TLS server name when the URL was pinned to an address. */
	hostHeader?: string;
	serverName?: string;
	/** The address that was checked, when known before connecting. */
	checkedAddress?: string;
}

function withoutBrackets(host: string): string {
	return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Checks where a hop's link leads before connecting: the hop to request (pinned to the resolved address when
 * there is a resolver) and, when the address is not public, what was refused. Throws when the name cannot be
 * resolved (n8n's own SSRF policy refusing it included).
 */
export async function checkBeforeConnecting(
	url: URL,
	resolver: Resolver | undefined,
): Promise<CheckedHop & { refused?: RefusedAddress }> {
	const host = withoutBrackets(url.hostname);
	const literal = classOf(host);
	if (literal !== undefined) {
		return {
			url,
			checkedAddress: host,
			...(literal === null ? {} : { refused: { address: host, kind: literal, seenIn: 'link' } }),
		};
	}
	if (!resolver) return { url };
	const addresses = await resolver(host);
	if (addresses.length === 0) throw new Error(`${host} has no address`);
	const pinned = new URL(url.href);
	pinned.hostname = addresses[0].includes(':') ? `[${addresses[0]}]` : addresses[0];
	const hop: CheckedHop = {
		url: pinned,
		hostHeader: url.host,
		serverName: url.protocol === 'https:' ? host : undefined,
		checkedAddress: addresses[0],
	};
	for (const address of addresses) {
		const kind = classOf(address);
		if (kind !== null)
			return { ...hop, refused: { address, kind: kind ?? 'unconfirmed', seenIn: 'resolver' } };
	}
	return hop;
}

/** The address of the socket a streamed answer arrived on, when n8n's client still exposes it. */
function connectedAddressOf(body: unknown): string | undefined {
	const address = (body as { socket?: { remoteAddress?: unknown } } | null)?.socket?.remoteAddress;
	return typeof address === 'string' && address !== '' ? address : undefined;
}

/**
 * Checks the address the answer came from, for a hop that was not pinned to a checked address (no resolver);
 * a pinned hop went to the address checked before (or through a proxy the n8n administrator configured).
 */
export function checkConnected(body: unknown, hop: CheckedHop): RefusedAddress | undefined {
	if (hop.checkedAddress !== undefined) return undefined;
	const address = connectedAddressOf(body);
	if (address === undefined)
		return { address: hop.url.hostname, kind: 'unconfirmed', seenIn: 'socket' };
	const kind = classOf(address);
	return kind === null ? undefined : { address, kind: kind ?? 'unconfirmed', seenIn: 'socket' };
}
