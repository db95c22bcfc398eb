/**
 * Which kind of network an IP address belongs to, as a pure function: the Source URL fetch refuses every
 * address that is not on the public internet unless the user allows private network addresses.
 * Ranges: IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its updates).
 */

/** What the user reads: "127.0.0.1 is a loopback address". */
export type AddressClass =
	| 'loopback'
	| 'private (RFC 1918)'
	| 'link-local'
	| 'cloud metadata (link-local)'
	| 'carrier-grade NAT (RFC 6598)'
	| 'unique-local IPv6 (fc00::/7)'
	| 'site-local IPv6 (deprecated)'
	| 'unspecified'
	| '"this network" (0.0.0.0/8)'
	| 'multicast'
	| 'broadcast'
	| 'reserved'
	| 'documentation'
	| 'benchmarking'
	| 'IETF protocol assignment'
	| 'local-use NAT64'
	| 'discard-only IPv6'
	| 'Teredo tunnel';

interface Ipv4Range {
	first: number;
	bits: number;
	kind: AddressClass;
}

function v4(text: string, bits: number, kind: AddressClass): Ipv4Range {
	return { first: parseIpv4(text) ?? 0, bits, kind };
}

/** Most specific first: 169.254.169.254 is named before the rest of 169.254/16. */
const ipv4Ranges: Ipv4Range[] = [
	v4('169.254.169.254', 32, 'cloud metadata (link-local)'),
	v4('255.255.255.255', 32, 'broadcast'),
	v4('0.0.0.0', 32, 'unspecified'),
	v4('0.0.0.0', 8, '"this network" (0.0.0.0/8)'),
	v4('10.0.0.0', 8, 'private (RFC 1918)'),
	v4('100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'),
	v4('127.0.0.0', 8, 'loopback'),
	v4('169.254.0.0', 16, 'link-local'),
	v4('172.16.0.0', 12, 'private (RFC 1918)'),
	v4('192.0.0.0', 24, 'IETF protocol assignment'),
	v4('192.0.2.0', 24, 'documentation'),
	v4('192.88.99.0', 24, 'reserved'),
	v4('192.168.0.0', 16, 'private (RFC 1918)'),
	v4('198.18.0.0', 15, 'benchmarking'),
	v4('198.51.100.0', 24, 'documentation'),
	v4('203.0.113.0', 24, 'documentation'),
	v4('224.0.0.0', 4, 'multicast'),
	v4('240.0.0.0', 4, 'reserved'),
];

/** A dotted-quad IPv4 address as a 32-bit number; undefined for anything else. */
export function parseIpv4(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255))
		return undefined;
	return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Class(value: number): AddressClass | null {
	for (const range of ipv4Ranges) {
		const size = 2 ** (32 - range.bits);
		if (value >= range.first && value < range.first + size) return range.kind;
	}
	return null;
}

/** An IPv6 address (optionally with an embedded dotted IPv4 tail or a zone) as eight 16-bit groups. */
export function parseIpv6(text: string): number[] | undefined {
	let address = text.replace(/%.*$/, '');
	const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
	if (tail) {
		const value = parseIpv4(tail[1]);
		if (value === undefined) return undefined;
		address =
			`${address.slice(0, -tail[1].length)}${Math.floor(value / 65536).toString(16)}:` +
			`${(value % 65536).toString(16)}`;
	}
	const halves = address.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
	const head = groupsOf(halves[0]);
	const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
	const missing = 8 - head.length - rest.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
	if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
	return groups.map((group) => parseInt(group, 16));
}

/** The IPv4 address held in groups `at` and `at + 1`. */
function embeddedIpv4(groups: number[], at: number): number {
	return groups[at] * 65536 + groups[at + 1];
}

function startsWith(groups: number[], prefix: number[], bits: number): boolean {
	for (let bit = 0; bit < bits; bit += 16) {
		const width = Math.min(16, bits - bit);
		const mask = (0xffff << (16 - width)) & 0xffff;
		const index = bit / 16;
		if ((groups[index] & mask) !== ((prefix[index] ?? 0) & mask)) return false;
	}
	return true;
}

function ipv6Class(groups: number[]): AddressClass | null {
	const allZeroBefore = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (allZeroBefore(8)) return 'unspecified';
	if (allZeroBefore(7) && groups[7] === 1) return 'loopback';
	// IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d): judged by the IPv4 address.
	if (allZeroBefore(5) && groups[5] === 0xffff) return ipv4Class(embeddedIpv4(groups, 6));
	if (allZeroBefore(6)) return ipv4Class(embeddedIpv4(groups, 6));
	// NAT64's well-known prefix reaches the IPv4 address it embeds; 6to4 (2002::/16) the one in bits 16-47.
	if (startsWith(groups, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return ipv4Class(embeddedIpv4(groups, 6));
	if (startsWith(groups, [0x2002], 16)) return ipv4Class(embeddedIpv4(groups, 1));
	if (startsWith(groups, [0x64, 0xff9b, 1], 48)) return 'local-use NAT64';
	if (startsWith(groups, [0x100, 0, 0, 0], 64)) return 'discard-only IPv6';
	if (startsWith(groups, [0x2001, 0], 32)) return 'Teredo tunnel';
	if (startsWith(groups, [0x2001, 0xdb8], 32) || startsWith(groups, [0x3fff], 20))
		return 'documentation';
	if (startsWith(groups, [0x2001, 0x0002, 0], 48)) return 'benchmarking';
	if (startsWith(groups, [0x2001], 23)) return 'IETF protocol assignment';
	if (startsWith(groups, [0xfc00], 7)) return 'unique-local IPv6 (fc00::/7)';
	if (startsWith(groups, [0xfe80], 10)) return 'link-local';
	if (startsWith(groups, [0xfec0], 10)) return 'site-local IPv6 (deprecated)';
	if (startsWith(groups, [0xff00], 8)) return 'multicast';
	// Only 2000::/3 is allocated as global unicast; the rest of the space is reserved.
	if (!startsWith(groups, [0x2000], 3)) return 'reserved';
	return null;
}

/**
 * The class of an IP address (IPv4 dotted quad, or IPv6 with or without brackets), null for a public
 * address; undefined when the text is not an IP address at all (a host name).
 */
export function addressClassOf(address: string): AddressClass | null | undefined {
	const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
	const ipv4 = parseIpv4(bare);
	if (ipv4 !== undefined) return ipv4Class(ipv4);
	if (!bare.includes(':')) return undefined;
	const groups = parseIpv6(bare);
	return groups ? ipv6Class(groups) : undefined;
}
