/**
 * The Embroidery Tool driven through n8n's MCP Server Trigger by an MCP client, no language model:
 * list the tools, then call Get Usage, Get Many, Create from a URL with wait, and Get, and check each
 * answer against the sandbox.
 */
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport as McpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { serveSampleFiles } from '../../scripts/examples';
import { sandboxRequest } from '../../scripts/sandbox-client';
import type { LocalN8n, WorkflowExport, WorkflowNode } from '../../scripts/n8n';
import { resources } from '../../nodes/Embroidery/actions/versionDescription';
import {
	importAccountCredential,
	n8nUnderTest,
	openServedEnvironment,
	type SandboxInfo,
} from './support/environment';

// Types come through the SDK's typesVersions (its ES module build); at run time jest requires the
// CommonJS build that its package exports name for require.
const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as {
	Client: typeof McpClient;
};
const { StreamableHTTPClientTransport } =
	require('@modelcontextprotocol/sdk/client/streamableHttp.js') as {
		StreamableHTTPClientTransport: typeof McpTransport;
	};

const workflowId = 'e2eMcpTools00001';
/**
 * The tools' own account: the other files of the served n8n (test/e2e/support/sequencer.js) use the demo key, and
 * when this file followed them its 60 requests a minute were often used up (the create-and-wait call then waited
 * up to a minute for the window: 10 to 48 s across runs).
 */
const credential = { id: 'embroideryMcp001', name: 'Embroidery for the MCP tools' };
const mcpPath = 'embroidery-tools';
const trigger = 'MCP Server Trigger';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

function tool(
	name: string,
	parameters: Record<string, unknown>,
	index: number,
	typeVersion = 1,
): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-embroidery.embroideryTool',
		typeVersion,
		position: [220 * index, 240],
		parameters,
		credentials: { embroideryApi: { ...credential } },
	};
}

function mcpWorkflow(): WorkflowExport {
	const tools = [
		tool('get_usage', { resource: 'account', operation: 'getUsage' }, 0),
		tool('list_jobs', { resource: 'job', operation: 'getMany', returnAll: false, limit: 20 }, 1),
		tool(
			'create_job',
			{
				resource: 'job',
				operation: 'create',
				workflow: fromAI('workflow', 'conversion for a machine file, digitising for artwork'),
				source: 'url',
				sourceUrl: fromAI('sourceUrl', 'Public http(s) link to the source file'),
				format: fromAI('format', 'Output format key such as dst or pes'),
				waitForCompletion: true,
				timeout: 120,
				// The sample files are served on loopback, which a Source URL reaches only when allowed.
				options: { allowPrivateNetworks: true },
			},
			2,
		),
		tool(
			'get_job',
			{
				resource: 'job',
				operation: 'get',
				jobId: fromAI('jobId', 'The job id Create returned'),
				workflow: fromAI('workflow', 'The job workflow'),
			},
			3,
		),
		tool(
			'unlock_job',
			{
				resource: 'job',
				operation: 'unlock',
				jobId: fromAI('jobId', 'The job id'),
				workflow: fromAI('workflow', 'The job workflow'),
			},
			4,
		),
		// Version 2 (the default): the Job field, Workflow left on Detect, Simplify on.
		tool(
			'get_job_v2',
			{
				resource: 'job',
				operation: 'get',
				jobId: { __rl: true, mode: 'id', value: fromAI('jobId', 'The job id Create returned') },
			},
			5,
			2,
		),
		// Version 3: Output left on Simplified, the ten fields with the file links an agent hands on.
		tool(
			'get_job_v3',
			{
				resource: 'job',
				operation: 'get',
				jobId: { __rl: true, mode: 'id', value: fromAI('jobId', 'The job id Create returned') },
			},
			6,
			3,
		),
	];
	const connections: Record<string, unknown> = {};
	for (const node of tools)
		connections[node.name] = { ai_tool: [[{ node: trigger, type: 'ai_tool', index: 0 }]] };
	return {
		id: workflowId,
		name: 'E2e: Embroidery tools over MCP',
		active: false,
		nodes: [
			{
				id: 'e2e-mcp-trigger',
				name: trigger,
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [440, 0],
				webhookId: 'e2e-mcp-embroidery',
				parameters: { path: mcpPath, authentication: 'none' },
			},
			...tools.map((node, index) => ({ id: `e2e-mcp-tool-${index}`, ...node })),
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** The JSON a tool call answered with (n8n sends the tool's output items as one text part). */
function answerOf(result: Record<string, unknown>): Array<Record<string, unknown>> {
	const parts = (result.content ?? []) as Array<{ type: string; text?: string }>;
	const text = parts.find((part) => part.type === 'text')?.text ?? '';
	if (result.isError) throw new Error(`The tool answered with an error: ${text}`);
	const parsed = JSON.parse(text) as unknown;
	return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
}

async function sandboxGet<T>(sandbox: SandboxInfo, path: string): Promise<T> {
	const response = await sandboxRequest(sandbox, 'GET', path);
	if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
	return (await response.json()) as T;
}

describe(`the Embroidery Tool over MCP in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let client: McpClient;
	let samples: Awaited<ReturnType<typeof serveSampleFiles>>;

	beforeAll(async () => {
		const environment = await openServedEnvironment();
		n8n = environment.n8n;
		const { key } = await importAccountCredential(n8n, environment.sandbox, {
			ref: credential,
			creditBalance: 100,
		});
		// The service as this file's account sees it.
		sandbox = { ...environment.sandbox, demoKey: key };
		samples = await serveSampleFiles();
		await n8n.importWorkflows([mcpWorkflow()]);
		await n8n.activateWorkflows([workflowId]);
		client = new Client({ name: 'embroidery-e2e', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(`${n8n.url}/mcp/${mcpPath}`)));
	});

	afterAll(async () => {
		await client?.close().catch(() => undefined);
		samples?.server.close();
	});

	it('lists each Embroidery tool with the description that says what it does, costs and needs', async () => {
		const { tools } = await client.listTools();
		const byName = new Map(tools.map((entry) => [entry.name, entry]));

		expect([...byName.keys()].sort()).toEqual([
			'create_job',
			'get_job',
			'get_job_v2',
			'get_job_v3',
			'get_usage',
			'list_jobs',
			'unlock_job',
		]);
		const { job, account } = resources;
		expect(byName.get('get_usage')?.description).toBe(
			account.operations.getUsage.toolDescription[1],
		);
		expect(byName.get('unlock_job')?.description).toBe(job.operations.unlock.toolDescription[1]);
		expect(byName.get('unlock_job')?.description).toMatch(/COSTS MONEY/);
		expect(byName.get('create_job')?.description).toBe(job.operations.create.toolDescription[1]);
		expect(Object.keys(byName.get('create_job')?.inputSchema.properties ?? {}).sort()).toEqual([
			'format',
			'sourceUrl',
			'workflow',
		]);
		expect(Object.keys(byName.get('get_job')?.inputSchema.properties ?? {}).sort()).toEqual([
			'jobId',
			'workflow',
		]);
		expect(byName.get('get_job_v2')?.description).toBe(job.operations.get.toolDescription[2]);
		expect(byName.get('get_job_v2')?.description).toMatch(/Workflow is optional/);
		expect(Object.keys(byName.get('get_job_v2')?.inputSchema.properties ?? {})).toEqual(['jobId']);
		expect(byName.get('get_job_v3')?.description).toBe(job.operations.get.toolDescription[3]);
		expect(byName.get('get_job_v3')?.description).toMatch(/previewUrl/);
	});

	it('Get Usage answers what the sandbox holds for the account', async () => {
		const [usage] = answerOf(await client.callTool({ name: 'get_usage', arguments: {} }));
		const { freeUsage } = await sandboxGet<{ freeUsage: Record<string, unknown> }>(
			sandbox,
			'/usage',
		);

		expect(usage).toEqual(
			expect.objectContaining({
				creditBalance: freeUsage.creditBalance,
				limited: freeUsage.limited,
			}),
		);
	});

	it(
		'Create from a URL with wait converts the linked file; Get and Get Many then show that job ' +
			'as the sandbox does',
		async () => {
			const [created] = answerOf(
				await client.callTool(
					{
						name: 'create_job',
						arguments: {
							workflow: 'conversion',
							sourceUrl: `${samples.url}/Star.JEF`,
							format: 'dst',
						},
					},
					undefined,
					{ timeout: 180_000 },
				),
			);
			expect(created).toEqual(
				expect.objectContaining({
					workflow: 'conversion',
					status: 'completed',
					sourceFile: 'Star.JEF',
				}),
			);
			const id = String(created.id);
			const { job } = await sandboxGet<{ job: Record<string, unknown> }>(
				sandbox,
				`/jobs/conversion/${id}`,
			);
			expect(job).toEqual(
				expect.objectContaining({ id, status: 'completed', downloadsUnlocked: false }),
			);

			const [fetched] = answerOf(
				await client.callTool({
					name: 'get_job',
					arguments: { jobId: id, workflow: 'conversion' },
				}),
			);
			expect(fetched).toEqual(
				expect.objectContaining({
					id,
					workflow: 'conversion',
					status: 'completed',
					downloadsUnlocked: false,
				}),
			);
			expect(fetched.metrics).toEqual(job.metrics);

			// Version 2 finds the workflow itself and, simplified, leaves the signed links out.
			const [simplified] = answerOf(
				await client.callTool({ name: 'get_job_v2', arguments: { jobId: id } }),
			);
			expect(simplified).toEqual(
				expect.objectContaining({
					id,
					workflow: 'conversion',
					status: 'completed',
					sourceFile: 'Star.JEF',
				}),
			);
			expect(JSON.stringify(simplified)).not.toMatch(/downloadUrl|previewUrl/);

			// Version 3's tool answers with the ten fields, the preview link among them (the machine file's
			// is null until Unlock).
			const [answer] = answerOf(
				await client.callTool({ name: 'get_job_v3', arguments: { jobId: id } }),
			);
			expect(Object.keys(answer)).toEqual([
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
			expect(answer).toEqual(
				expect.objectContaining({
					id,
					status: 'completed',
					outputUrl: null,
					previewUrl: expect.stringContaining('signature='),
				}),
			);

			const listed = answerOf(await client.callTool({ name: 'list_jobs', arguments: {} }));
			const { data } = await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/jobs');
			expect(listed.map((entry) => entry.id)).toContain(id);
			expect(listed.map((entry) => entry.id)).toEqual(
				data.slice(0, listed.length).map((entry) => entry.id),
			);
		},
	);
});
