/**
 * The API key goes to the service's own origin only: redirects of API answers and of signed files, and the file
 * names a download takes from Content-Disposition. Against spec-valid variants of the service (support/variantSuite).
 */
import { safeFileName } from '../../../../nodes/Embroidery/transport';
import { binaryBuffer } from '../../../support/binaryData';
import { runNode } from '../../../support/nodeRun';
import { createConversion } from '../../../support/jobParameters';
import { startOtherOrigin } from '../../../support/variantService';
import { itemsOf } from '../../support/nodeItems';
import { stars, useVariantSuite } from '../../support/variantSuite';

jest.setTimeout(120_000);

const { variant, credentials, completedJob, createdIds } = useVariantSuite();

describe("the API key goes to the service's own origin only", () => {
	it('refuses an API answer redirected to another origin, and the other origin never sees the key', async () => {
		const other = await startOtherOrigin();
		try {
			const creds = await credentials();
			variant.on((request) =>
				request.route === 'GET /usage' ? { redirectTo: `${other.origin}/api/v1/usage` } : undefined,
			);
			const result = await runNode({
				credentials: creds,
				parameters: { resource: 'account', operation: 'getUsage' },
				input: [{}],
			});
			expect(result.error?.message).toContain(`redirected GET /usage to ${other.origin}`);
			expect(result.error?.description).toMatch(
				/only sent to the origin of the credential's 'Base URL'/,
			);
			expect(other.requests).toHaveLength(0);
			expect(variant.of('GET /usage')).toHaveLength(1);
		} finally {
			await other.close();
		}
	});

	it('follows a signed file redirected to another origin without the key', async () => {
		const other = await startOtherOrigin();
		try {
			const { creds, id } = await completedJob();
			variant.on((request) =>
				request.route === 'GET /uploads/{id}/preview'
					? { redirectTo: `${other.origin}/files/preview.png` }
					: undefined,
			);
			const [item] = itemsOf(
				await runNode({
					credentials: creds,
					parameters: {
						resource: 'job',
						operation: 'download',
						jobId: id,
						workflow: 'conversion',
						files: ['preview'],
					},
					input: [{}],
				}),
			);
			expect(other.requests.map((request) => request.url)).toEqual(['/files/preview.png']);
			expect(other.requests[0].headers.authorization).toBeUndefined();
			expect(JSON.stringify(other.requests[0].headers)).not.toContain(creds.apiKey);
			expect((await binaryBuffer(item.binary!.preview)).toString()).toBe(
				'PNG bytes from the other origin',
			);
			expect(item.binary!.preview.fileName).toBe('from-cdn.png');
		} finally {
			await other.close();
		}
	});

	it("follows a redirect within the service's origin with the key", async () => {
		const creds = await credentials();
		variant.on((request) =>
			request.route === 'GET /usage' && !request.url.includes('again')
				? { redirectTo: '/api/v1/usage?again=1', status: 307 }
				: undefined,
		);
		const [item] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: { resource: 'account', operation: 'getUsage' },
				input: [{}],
			}),
		);
		expect(typeof item.json.creditBalance).toBe('number');
		expect(variant.of('GET /usage').map((request) => request.headers.authorization)).toEqual([
			`Bearer ${creds.apiKey}`,
			`Bearer ${creds.apiKey}`,
		]);
	});

	it(
		"refuses a POST redirected within the service's origin: nothing is sent again, and the " +
			'error says what to check',
		async () => {
			const creds = await credentials();
			variant.on((request) =>
				request.route === 'POST /jobs'
					? { redirectTo: '/api/v1/jobs?again=1', status: 307 }
					: undefined,
			);
			const result = await runNode({
				credentials: creds,
				parameters: createConversion(),
				input: stars(1),
			});
			expect(result.error?.message).toBe(
				`The service redirected POST /jobs (HTTP 307) to ${variant.origin}/api/v1/jobs; the ` +
					`node did not send it again [item 0]`,
			);
			expect(result.error?.description).toMatch(
				/never sent twice \(an upload cannot even be resent as it was\): nothing went to the new address/,
			);
			expect(result.error?.description).toMatch(
				/Check Job > Get Many for a job this request may have created/,
			);
			expect(variant.of('POST /jobs')).toHaveLength(1);
			expect(await createdIds(creds)).toEqual([]);
		},
	);

	it('safeFileName drops C1 and bidi controls too', () => {
		expect(safeFileName('report\u0085\u009b.pes')).toBe('report.pes');
		expect(safeFileName('logo\u202egnp.exe')).toBe('logognp.exe');
		expect(safeFileName('\u2066a\u2067b\u2068c\u2069\u202a\u202b\u202c\u202d.dst')).toBe('abc.dst');
		expect(safeFileName('caf\u00e9 \u00a0\u2010.pes')).toBe('caf\u00e9 \u00a0\u2010.pes');
		expect(safeFileName('\u0080\u009f\u202e')).toBeUndefined();
	});

	it('keeps only the last path segment of a Content-Disposition file name, without control characters', async () => {
		expect(safeFileName('../../etc/passwd')).toBe('passwd');
		expect(safeFileName('..\\..\\boot.ini')).toBe('boot.ini');
		expect(safeFileName('a\u0000b\u0007c.pes')).toBe('abc.pes');
		expect(safeFileName('../..')).toBeUndefined();
		const { creds, id } = await completedJob();
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview'
				? {
						headers: {
							'content-disposition': "attachment; filename*=UTF-8''..%2F..%2F.ssh%2Fevil%07.png",
						},
					}
				: undefined,
		);
		const [item] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: {
					resource: 'job',
					operation: 'download',
					jobId: id,
					workflow: 'conversion',
					files: ['preview'],
				},
				input: [{}],
			}),
		);
		expect(item.binary!.preview.fileName).toBe('evil.png');
	});
});
