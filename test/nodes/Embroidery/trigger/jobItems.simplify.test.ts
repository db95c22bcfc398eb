/** The Embroidery Trigger's Simplify (version 1.1) through n8n-core's real PollContext against the sandbox. */
import { useWorkerSandbox } from '../../../support/sandboxFixture';
import { ActiveTriggerHarness, testTriggerManually } from '../../../support/triggerRun';
import { convert, newAccount, waitUntilEnded } from './support/sandboxJobs';

jest.setTimeout(120_000);

const { sandbox, admin } = useWorkerSandbox();

const both = { events: ['completed', 'failed'], workflow: 'both' };

describe('Embroidery Trigger: Simplify', () => {
	test('version 1.1 emits simplified items by default; files still arrive as binary', async () => {
		const account = await newAccount(admin, sandbox);
		const trigger = new ActiveTriggerHarness({
			parameters: { ...both, options: { downloadFiles: true, includeFullJob: true } },
			credentials: account.credentials,
			typeVersion: 1.1,
		});
		expect(await trigger.activate()).toBeNull();
		const ids = await convert(account, 1);
		await waitUntilEnded(account, ids);
		const [item] = (await trigger.poll()) ?? [];
		expect(item.json).toMatchObject({
			id: ids[0],
			workflow: 'conversion',
			status: 'completed',
			formats: ['pes'],
			sourceFile: 'star-0.dst',
			sourceFileSize: expect.any(Number),
			outputFile: expect.any(String),
			warnings: expect.any(Array),
			outputsLocked: true,
			files: [expect.objectContaining({ kind: 'preview' })],
		});
		expect(JSON.stringify(item.json)).not.toMatch(/signature=/);
		for (const raw of ['source', 'outputs', 'artifacts', 'events', 'unlock'])
			expect(item.json).not.toHaveProperty(raw);
		expect(item.binary?.preview?.mimeType).toMatch(/^image\//);
	});

	test(
		'version 1.2 emits the ten flat fields, with the preview link (the machine file link stays ' +
			'null until Unlock)',
		async () => {
			const account = await newAccount(admin, sandbox);
			const trigger = new ActiveTriggerHarness({
				parameters: { ...both, options: { downloadFiles: true } },
				credentials: account.credentials,
				typeVersion: 1.2,
			});
			expect(await trigger.activate()).toBeNull();
			const ids = await convert(account, 1);
			await waitUntilEnded(account, ids);
			const [item] = (await trigger.poll()) ?? [];
			expect(Object.keys(item.json)).toEqual([
				'id',
				'workflow',
				'status',
				'downloadsUnlocked',
				'outputUrl',
				'previewUrl',
				'warnings',
				'failureCode',
				'failureReason',
				'attemptCount',
			]);
			expect(item.json).toMatchObject({
				id: ids[0],
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: false,
				outputUrl: null,
				previewUrl: expect.stringContaining('signature='),
				warnings: expect.any(Array),
			});
			expect(item.binary?.preview?.mimeType).toMatch(/^image\//);
		},
	);

	test('Simplify off, and version 1 triggers, keep the raw job', async () => {
		const account = await newAccount(admin, sandbox);
		const ids = await convert(account, 1);
		await waitUntilEnded(account, ids);
		const parameters = { ...both, options: { includeFullJob: true } };
		const [[off]] = (await testTriggerManually({
			parameters: { ...parameters, simplify: false },
			credentials: account.credentials,
			typeVersion: 1.1,
		})) ?? [[]];
		const [[v1]] = (await testTriggerManually({
			parameters,
			credentials: account.credentials,
		})) ?? [[]];
		for (const item of [off, v1]) {
			expect(item.json).toMatchObject({
				id: ids[0],
				source: { downloadUrl: expect.stringContaining('signature=') },
			});
			expect(item.json.events).toEqual(expect.any(Array));
		}
		const [[simple]] = (await testTriggerManually({
			parameters,
			credentials: account.credentials,
			typeVersion: 1.1,
		})) ?? [[]];
		expect(simple.json).not.toHaveProperty('source');
		expect(simple.json.sourceFile).toBe('star-0.dst');
	});
});
