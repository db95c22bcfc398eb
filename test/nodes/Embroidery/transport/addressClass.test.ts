/**
 * The address classes the Source URL fetch refuses by default, as a pure function: every special range
 * at its first and last address and just outside, in IPv4 and IPv6 forms. No traffic is sent anywhere.
 */
import { addressClassOf, parseIpv6 } from '../../../../nodes/Embroidery/transport/addressClass';

const ipv4Table: Array<[string, string | null]> = [
	['0.0.0.0', 'unspecified'],
	['0.0.0.1', '"this network" (0.0.0.0/8)'],
	['0.255.255.255', '"this network" (0.0.0.0/8)'],
	['1.0.0.0', null],
	['9.255.255.255', null],
	['10.0.0.0', 'private (RFC 1918)'],
	['10.255.255.255', 'private (RFC 1918)'],
	['11.0.0.0', null],
	['100.63.255.255', null],
	['100.64.0.0', 'carrier-grade NAT (RFC 6598)'],
	['100.127.255.255', 'carrier-grade NAT (RFC 6598)'],
	['100.128.0.0', null],
	['126.255.255.255', null],
	['127.0.0.0', 'loopback'],
	['127.0.0.1', 'loopback'],
	['127.255.255.255', 'loopback'],
	['128.0.0.0', null],
	['169.253.255.255', null],
	['169.254.0.0', 'link-local'],
	['169.254.169.254', 'cloud metadata (link-local)'],
	['169.254.255.255', 'link-local'],
	['169.255.0.0', null],
	['172.15.255.255', null],
	['172.16.0.0', 'private (RFC 1918)'],
	['172.31.255.255', 'private (RFC 1918)'],
	['172.32.0.0', null],
	['191.255.255.255', null],
	['192.0.0.0', 'IETF protocol assignment'],
	['192.0.0.255', 'IETF protocol assignment'],
	['192.0.1.0', null],
	['192.0.2.0', 'documentation'],
	['192.0.2.255', 'documentation'],
	['192.0.3.0', null],
	['192.88.99.0', 'reserved'],
	['192.88.99.255', 'reserved'],
	['192.88.100.0', null],
	['192.167.255.255', null],
	['192.168.0.0', 'private (RFC 1918)'],
	['192.168.255.255', 'private (RFC 1918)'],
	['192.169.0.0', null],
	['198.17.255.255', null],
	['198.18.0.0', 'benchmarking'],
	['198.19.255.255', 'benchmarking'],
	['198.20.0.0', null],
	['198.51.100.0', 'documentation'],
	['198.51.100.255', 'documentation'],
	['203.0.113.0', 'documentation'],
	['203.0.113.255', 'documentation'],
	['203.0.114.0', null],
	['223.255.255.255', null],
	['224.0.0.0', 'multicast'],
	['239.255.255.255', 'multicast'],
	['240.0.0.0', 'reserved'],
	['255.255.255.254', 'reserved'],
	['255.255.255.255', 'broadcast'],
	['8.8.8.8', null],
];

const ipv6Table: Array<[string, string | null]> = [
	['::', 'unspecified'],
	['[::]', 'unspecified'],
	['::1', 'loopback'],
	['[::1]', 'loopback'],
	['0:0:0:0:0:0:0:1', 'loopback'],
	['::2', '"this network" (0.0.0.0/8)'], // IPv4-compatible ::0.0.0.2
	// IPv4-mapped: judged by the IPv4 address, in dotted and in hex form (WHATWG's URL writes the hex one).
	['::ffff:127.0.0.1', 'loopback'],
	['[::ffff:7f00:1]', 'loopback'],
	['::ffff:10.1.2.3', 'private (RFC 1918)'],
	['::ffff:a9fe:a9fe', 'cloud metadata (link-local)'],
	['::ffff:0.0.0.0', 'unspecified'],
	['::ffff:8.8.8.8', null],
	['::127.0.0.1', 'loopback'],
	['64:ff9b::7f00:1', 'loopback'],
	['64:ff9b::808:808', null],
	['64:ff9b:1::1', 'local-use NAT64'],
	['2002:7f00:1::', 'loopback'],
	['2002:c0a8:101::1', 'private (RFC 1918)'],
	['2002:808:808::1', null],
	['100::', 'discard-only IPv6'],
	['100::ffff:ffff:ffff:ffff', 'discard-only IPv6'],
	['100:0:0:1::', 'reserved'],
	['2001::1', 'Teredo tunnel'],
	['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo tunnel'],
	['2001:2::1', 'benchmarking'],
	['2001:1ff:ffff::', 'IETF protocol assignment'],
	['2001:200::', null],
	['2001:db8::1', 'documentation'],
	['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
	['2001:db9::', null],
	['3fff::1', 'documentation'],
	['3fff:fff:ffff::', 'documentation'],
	['3fff:1000::', null],
	['fbff:ffff::', 'reserved'],
	['fc00::', 'unique-local IPv6 (fc00::/7)'],
	['fd12:3456::1', 'unique-local IPv6 (fc00::/7)'],
	['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local IPv6 (fc00::/7)'],
	['fe00::', 'reserved'],
	['fe80::', 'link-local'],
	['fe80::1%eth0', 'link-local'],
	['febf:ffff::', 'link-local'],
	['fec0::1', 'site-local IPv6 (deprecated)'],
	['ff00::', 'multicast'],
	['ff02::1', 'multicast'],
	['1fff:ffff::', 'reserved'],
	['2000::', null],
	['2606:4700::1111', null],
	['3ffe:ffff::', null],
	['4000::', 'reserved'],
];

describe('address classes', () => {
	test.each(ipv4Table)('IPv4 %s is %s', (address, expected) => {
		expect(addressClassOf(address)).toBe(expected);
	});

	test.each(ipv6Table)('IPv6 %s is %s', (address, expected) => {
		expect(addressClassOf(address)).toBe(expected);
	});

	test('every IPv4 class also holds for its IPv4-mapped IPv6 form', () => {
		for (const [address, expected] of ipv4Table) {
			expect([address, addressClassOf(`::ffff:${address}`)]).toEqual([address, expected]);
		}
	});

	test('host names and malformed addresses are not addresses (they are resolved first)', () => {
		for (const text of [
			'localhost',
			'example.com',
			'256.0.0.1',
			'1.2.3',
			'1.2.3.4.5',
			':::',
			'1::2::3',
			'12345::',
			'g::1',
		]) {
			expect([text, addressClassOf(text)]).toEqual([text, undefined]);
		}
		expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
		expect(parseIpv6('1:2:3:4:5:6:7::8')).toBeUndefined();
	});
});
