/** The harness itself against n8n's built-in nodes: execute, binaries, start, owner, REST, webhooks. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { fetchN8n, LocalN8n, n8nRuntime, nodeItems } from '../../scripts/n8n';
import { exportedDescriptions, snapshotFile } from '../../scripts/node-descriptions';
import {
	e2eOwner,
	n8nUnderTest,
	openEnvironment,
	openServedEnvironment,
} from './support/environment';
import { linearWorkflow, manualWorkflow, setFields } from './support/workflows';

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** The workflows published (n8n 2.x) or active (1.x) in a stopped n8n's database. */
function publishedWorkflows(userFolder: string): string[] {
	const database = new DatabaseSync(join(userFolder, '.n8n', 'database.sqlite'), {
		readOnly: true,
	});
	try {
		const columns = new Set(
			database
				.prepare('PRAGMA table_info(workflow_entity)')
				.all()
				.map(({ name }) => String(name)),
		);
		const published = [
			...(columns.has('active') ? ['active = 1'] : []),
			...(columns.has('activeVersionId') ? ['activeVersionId IS NOT NULL'] : []),
		].join(' OR ');
		const rows = database.prepare(`SELECT id FROM workflow_entity WHERE ${published}`).all();
		return rows.map((row) => String(row.id)).sort();
	} finally {
		database.close();
	}
}

/** A stopped n8n's personal projects and how many migrations its database has run. */
function databaseSummary(file: string): { projects: string[]; migrations: number } {
	const database = new DatabaseSync(file, { readOnly: true });
	try {
		const projects = database.prepare("SELECT id FROM project WHERE type = 'personal'").all();
		const { count } = database.prepare('SELECT count(*) AS count FROM migrations').get() as {
			count: number;
		};
		return { projects: projects.map((row) => String(row.id)).sort(), migrations: count };
	} finally {
		database.close();
	}
}

describe(`a real ${n8nUnderTest()} in an isolated user folder`, () => {
	let n8n: LocalN8n;

	beforeAll(async () => {
		({ n8n } = await openEnvironment());
		await n8n.importWorkflows([
			manualWorkflow('e2eHarnessFile01', 'Harness: JSON to file', [
				setFields('Order', { orderId: 'A-100', widthMm: 80 }),
				{
					name: 'To File',
					type: 'n8n-nodes-base.convertToFile',
					typeVersion: 1.1,
					parameters: { operation: 'toJson', options: {} },
				},
			]),
			linearWorkflow('e2eHarnessHook01', 'Harness: echo webhook', [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: 'e2e-harness-echo',
					position: [0, 0],
					parameters: {
						httpMethod: 'POST',
						path: 'harness-echo',
						responseMode: 'lastNode',
						options: {},
					},
				},
				{ ...setFields('Reply', { echoed: '={{ $json.body.orderId }}' }), position: [220, 0] },
			]),
		]);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	// The global setup's user folder began as a copy of the migrated database in the cache (its owner's project, whose
	// id n8n draws at random, is the copy's), and n8n found every migration run: it added none.
	it('began from the database this n8n version migrated once, and ran no migration again', async () => {
		const template = databaseSummary(await LocalN8n.migratedDatabase());
		expect(template.migrations).toBeGreaterThan(100);
		expect(databaseSummary(join(n8n.userFolder, '.n8n', 'database.sqlite'))).toEqual(template);
	});

	it('runs a Manual Trigger workflow with n8n execute and keeps its binary readable', async () => {
		const run = await n8n.execute('e2eHarnessFile01');

		expect(run.status).toBe('success');
		const [item] = nodeItems(run, 'To File');
		expect(item.binary?.data.mimeType).toBe('application/json');
		const bytes = await n8n.readBinary(item.binary!.data);
		expect(JSON.parse(bytes.toString('utf8'))).toEqual([{ orderId: 'A-100', widthMm: 80 }]);
	});

	// The package's node types as this n8n loads them (every version, the tool variant, the trigger): a change
	// meant to leave what users see alone keeps them byte for byte (scripts/node-descriptions.ts).
	it("exports the package's node types exactly as the saved snapshot of this n8n version", async () => {
		const saved = await readFile(snapshotFile(n8nRuntime().version), 'utf8');

		expect(await exportedDescriptions(n8n)).toBe(saved);
	});

	it('serves the REST API and a published webhook under n8n start, and no editor pages unless asked', async () => {
		await n8n.publishWorkflow('e2eHarnessHook01');
		await n8n.start();
		await n8n.setupOwner(e2eOwner).catch(() => undefined);
		await n8n.login(e2eOwner.email, e2eOwner.password);
		await n8n.waitForActivation(['e2eHarnessHook01']);

		const workflows = await n8n.rest<Array<{ id: string; activeVersionId: string | null }>>(
			'GET',
			'/rest/workflows',
		);
		expect(workflows.map((w) => w.id)).toEqual(
			expect.arrayContaining(['e2eHarnessFile01', 'e2eHarnessHook01']),
		);
		const response = await fetchN8n(`${n8n.url}/webhook/harness-echo`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ orderId: 'A-101' }),
			signal: AbortSignal.timeout(30_000),
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ echoed: 'A-101' });
		// Only the journey opens the editor (`openEnvironment({ editor: true })`); this n8n leaves its pages out.
		const page = await fetchN8n(`${n8n.url}/signin`, { signal: AbortSignal.timeout(30_000) });
		expect(page.status).toBe(404);
	});

	// The files of a jest worker share its user folder: the next one must not find this file's webhook alive.
	it('leaves nothing it published to the next file that opens the environment', async () => {
		await n8n.stop();
		expect(publishedWorkflows(n8n.userFolder)).toContain('e2eHarnessHook01');

		const next = (await openEnvironment()).n8n;

		expect(publishedWorkflows(next.userFolder)).toEqual([]);
		expect(next.hasPublished).toBe(false);
	});

	// The files that only need n8n running share one boot; a file that starts n8n of its own must not meet it.
	it('lends a running n8n to the next file that asks, and stops it for a file that starts its own', async () => {
		const first = (await openServedEnvironment()).n8n;
		await first.activateWorkflows(['e2eHarnessHook01']);
		const second = (await openServedEnvironment()).n8n;

		expect(second.pid).toBe(first.pid);
		const response = await fetchN8n(`${second.url}/webhook/harness-echo`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ orderId: 'A-102' }),
			signal: AbortSignal.timeout(30_000),
		});
		expect(await response.json()).toEqual({ echoed: 'A-102' });

		const served = second.pid!;
		const next = (await openEnvironment()).n8n;

		expect(isRunning(served)).toBe(false);
		expect(publishedWorkflows(next.userFolder)).toEqual([]);
	});
});
