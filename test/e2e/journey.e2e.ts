/**
 * What a user does in n8n's editor, in Debian's headless Chromium (playwright-core), against the real n8n
 * of this environment with the packed package: the credential form and its test, the nodes panel, the
 * Create node's fields, an example run from the canvas with its output, the Job picker and the trigger's
 * test event. Each step asserts what the page shows; the n8n 2.x run also writes the screenshots in docs/.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { exampleFolders, importExamples } from '../../scripts/demo';
import { exampleIds, examplesDir, readExamples } from '../../scripts/examples';
import { n8nRuntime, repoRoot, type LocalN8n } from '../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { launchBrowser } from '../support/browser';
import {
	e2eCredentials,
	e2eOwner,
	importAccountCredential,
	n8nUnderTest,
	openEnvironment,
	type SandboxInfo,
} from './support/environment';
import { embroideryStep, manualWorkflow } from './support/workflows';
import { eventually } from '../support/realTime';

const pickerWorkflowId = 'e2eJourneyPick01';
/**
 * The journey's credential: an account of its own (a credits account with the demo's 100 credits), so that what
 * the editor loads from the service (the Create form's formats, the Job picker's search) never waits on the demo
 * key's rate window, which the files before this one may have used up: the Format list once stayed empty past the
 * step's limit.
 */
const accountCredential = { id: 'embroideryJourney', name: 'Embroidery sandbox (my shop)' };

describe(`the editor journey in Chromium, ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let browser: Browser;
	let page: Page;
	/** docs/ for the n8n 2.x run (the README shows 2.x), the run's own folder otherwise. */
	let shotsDir: string;

	const shot = async (name: string) =>
		await page.screenshot({ path: join(shotsDir, `${name}.png`) });
	const ndv = () => page.locator('[data-test-id="ndv"]');
	const canvasNode = (name: string) =>
		page.locator('[data-test-id="canvas-node"]', { hasText: name });

	// Both wait as long as any step may (the page's default): under load, n8n 1.123.81 once took over 60 s
	// to draw a workflow's canvas after opening it.
	async function openWorkflow(id: string): Promise<void> {
		await page.goto(`${n8n.url}/workflow/${id}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	}

	async function openNode(name: string): Promise<Locator> {
		await canvasNode(name).dblclick();
		await ndv().waitFor();
		return ndv();
	}

	/** The parameters the open node shows, by their names (parameter-input-<name>). */
	async function shownParameters(): Promise<string[]> {
		return await ndv()
			.locator('[data-test-id^="parameter-input-"]')
			.evaluateAll((inputs) =>
				inputs
					.map((input) => input.getAttribute('data-test-id')!.slice('parameter-input-'.length))
					.filter((name) => name !== 'field'),
			);
	}

	/** Picks an option of an n8n select (a parameter's dropdown) by its visible text. */
	async function choose(parameter: string, option: string): Promise<void> {
		await ndv().locator(`[data-test-id="parameter-input-${parameter}"]`).click();
		await page.locator('.el-select-dropdown__item:visible', { hasText: option }).first().click();
	}

	/**
	 * Opens a select until `option` shows, by what the page shows rather than by how long a click takes. Under load
	 * a list can take many seconds to open and its options longer (the node loads them from the service with the
	 * credential just chosen), a click on a list that is open closes it, and n8n 1.x's select can swallow the first
	 * click after another list closed. So the select is clicked once no list is open (the credential's closes
	 * first), again if no list opened, and a list open 30 s without the option is closed and opened again. The
	 * failure says what the open list showed.
	 */
	async function openUntilShown(select: Locator, option: Locator): Promise<void> {
		const openList = page.locator('.el-select-dropdown:visible');
		const deadline = Date.now() + 120_000;
		let shown = '';
		const optionShown = async () => (await option.count()) > 0;
		while (Date.now() < deadline) {
			await eventually(async () => (await openList.count()) === 0, 10_000);
			await select.click();
			// No list at all after 10 s: the click was swallowed, and another one is safe.
			await eventually(async () => (await optionShown()) || (await openList.count()) > 0, 10_000);
			if ((await openList.count()) === 0) continue;
			if (await eventually(optionShown, 30_000)) return;
			shown = (await openList.allInnerTexts()).join(' | ');
			// Closes an open list without leaving the node (Escape would close the node's panel in n8n 2.x).
			await ndv().locator('[data-test-id="tab-params"]').click();
		}
		throw new Error(
			`The option never showed; the open list showed: ${shown || 'nothing (no list open)'}; ` +
				`the field showed: ${await fieldText(select)}`,
		);
	}

	/** What a parameter's field shows: its text and its inputs' values (n8n puts a load's error there). */
	async function fieldText(field: Locator): Promise<string> {
		return await field.evaluate((element) =>
			[
				element.textContent ?? '',
				...Array.from(element.querySelectorAll('input')).map((input) => input.value),
			]
				.map((text) => text.trim())
				.filter(Boolean)
				.join(' | '),
		);
	}

	/** Picks the node's credential by its name (n8n gives a credential created over REST an id of its own). */
	async function chooseCredential(name: string): Promise<void> {
		await ndv().locator('[data-test-id="node-credentials-select"]').click();
		await page
			.locator('[data-test-id^="node-credentials-select-item-"]', { hasText: name })
			.click();
	}

	beforeAll(async () => {
		// The one file that opens the editor's pages: its n8n serves them.
		const environment = await openEnvironment({ editor: true });
		({ n8n, sandbox } = environment);
		shotsDir = n8nRuntime().major >= 2 ? join(repoRoot, 'docs') : join(environment.root, 'shots');
		await mkdir(shotsDir, { recursive: true });
		const folders = exampleFolders(join(environment.filesDir, 'journey'));
		// Into the running n8n over its REST API, as the editor saves them (n8n 1.x's workflows through its CLI).
		await n8n.start();
		await n8n.signIn(e2eOwner);
		const { key } = await importAccountCredential(n8n, sandbox, {
			ref: accountCredential,
			creditBalance: 100,
		});
		// The service as the journey's account sees it: the examples' credential and the jobs made here use its key.
		sandbox = { ...sandbox, demoKey: key };
		await importExamples(n8n, await readExamples(), sandbox, folders);
		await n8n.importWorkflows([
			manualWorkflow(pickerWorkflowId, 'Journey: pick a job', [
				embroideryStep(
					'Get job',
					{
						resource: 'job',
						operation: 'get',
						jobId: { __rl: true, mode: 'list', value: '' },
						workflow: 'detect',
					},
					accountCredential,
					3,
				),
			]),
		]);
		browser = await launchBrowser();
		page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
		// A real limit for each step, generous for a loaded machine: at load average 16 the credential form took
		// over 30 s to show its test's answer.
		page.setDefaultTimeout(90_000);
		await page.goto(`${n8n.url}/signin`);
		// n8n 1.x does not tie its labels to the inputs.
		await page.locator('input[name="emailOrLdapLoginId"]').fill(e2eOwner.email);
		await page.locator('input[name="password"]').fill(e2eOwner.password);
		await page.getByRole('button', { name: /sign in/i }).click();
		await page.waitForURL((target) => !target.pathname.startsWith('/signin'));
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
	});

	it('creates the credential in its form: the 401 words for a wrong key, success for the right one', async () => {
		await page.goto(`${n8n.url}/home/credentials/create`);
		const select = page.locator('[data-test-id="selectCredential-modal"]');
		await select.locator('[data-test-id="new-credential-type-select"]').click();
		await page.keyboard.type('Embroidery');
		await page
			.locator('[data-test-id="new-credential-type-select-option"]', { hasText: 'Embroidery API' })
			.click();
		await select.locator('[data-test-id="new-credential-type-button"]').click();
		const form = page.locator('[data-test-id="editCredential-modal"]');
		// The form asks n8n for the new credential's name once it is open. Saved before that answer, the credential
		// has no name: n8n refuses it, and nothing is tested (seen once at the suite's load, no answer in 90 s).
		await page.waitForFunction(() => {
			const name = document.querySelector('[data-test-id="credential-name"]');
			const shown = name?.querySelector('input')?.value ?? name?.textContent ?? '';
			return shown.trim() !== '';
		});
		const apiKey = form.locator('[data-test-id="parameter-input-apiKey"] input');
		const save = form.locator('[data-test-id="credential-save-button"]');
		await form.locator('[data-test-id="parameter-input-baseUrl"] input').fill(sandbox.baseUrl);

		await apiKey.fill('emb_sandbox_this_key_does_not_exist_000000');
		await save.click();
		await form.getByText(/Couldn.t connect with these settings/).waitFor();
		const details = form.getByText('More details');
		if (await details.isVisible()) await details.click();
		// n8n 1.123 hands a 401 to the credential's rules without its response, so they never match there
		// and its own words show instead (found by this journey; the API tests run n8n-core 2.41's tester).
		const refused =
			n8nRuntime().major >= 2
				? 'The API key is invalid, expired or revoked. Create a new key and paste it here.'
				: 'Authorization failed - please check your credentials';
		await form.getByText(refused).waitFor();

		await apiKey.fill(sandbox.demoKey);
		await save.click();
		await form.getByText('Connection tested successfully').waitFor();
		await shot('credential-test');
		await page.keyboard.press('Escape');
	});

	it('finds Embroidery by search (icon, name, description); Create shows the fields designed', async () => {
		await page.goto(`${n8n.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-add-button"]').click();
		const creator = page.locator('[data-test-id="node-creator"]');
		// Typed only once the panel's search field is there: keys pressed while it opens are lost under load.
		await creator.locator('input').first().fill('embroidery');
		const entry = creator.locator('[data-test-id="item-iterator-item"]').filter({
			has: page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Embroidery$/ }),
		});
		await entry.waitFor();
		expect(
			await creator.locator('[data-test-id="node-creator-item-name"]').allInnerTexts(),
		).toEqual(['Embroidery']);
		const icon = entry.locator('img').first();
		expect(await icon.getAttribute('src')).toContain('n8n-nodes-embroidery');
		expect(
			await icon.evaluate((image) => (image as HTMLImageElement).naturalWidth),
		).toBeGreaterThan(0);
		await shot('nodes-panel');

		// One entry for both nodes, described for both (n8n 2.x in the list; both in the node's details).
		const description =
			'Convert embroidery machine files, digitise artwork and start workflows when jobs complete or fail';
		await entry.click();
		await creator.getByText(description).first().waitFor();
		await creator.getByText(/^Triggers \(2\)$/).waitFor();
		await creator.getByText(/^Actions \(\d+\)$/).click();
		await creator.getByText('Create jobs', { exact: true }).click();
		await ndv().waitFor();

		const shown = await shownParameters();
		expect(shown).toEqual(
			expect.arrayContaining(['workflow', 'source', 'binaryPropertyName', 'format']),
		);
		for (const hidden of ['sourceUrl', 'widthMm', 'colourCount', 'threadPaletteKey'])
			expect(shown).not.toContain(hidden);

		await choose('source', 'URL');
		await ndv().locator('[data-test-id="parameter-input-sourceUrl"]').waitFor();
		expect(await shownParameters()).not.toContain('binaryPropertyName');

		await choose('workflow', 'Digitising');
		await ndv().locator('[data-test-id="parameter-input-widthMm"]').waitFor();
		expect(await shownParameters()).toEqual(
			expect.arrayContaining(['sourceUrl', 'widthMm', 'colourCount', 'threadPaletteKey']),
		);

		// The formats come from the service with the node's credential: a refused one, then a working one.
		const format = ndv().locator('[data-test-id="parameter-input-format"]');
		const dst = page.locator('.el-select-dropdown__item:visible', { hasText: 'Tajima DST (.dst)' });
		// The refused load must have ended before the credential changes again: n8n's field skips a new load while
		// one is under way, and would keep the refusal (a clean-clone run under load saw only that, for 120 s).
		await chooseCredential(e2eCredentials.wrongKey.name);
		const refused = await eventually(
			async () => /Error fetching options/.test(await fieldText(format)),
			60_000,
		);
		expect({ refused, field: await fieldText(format) }).toMatchObject({ refused: true });
		await chooseCredential(accountCredential.name);
		await openUntilShown(format, dst);
		await ndv().locator('[data-test-id="tab-params"]').click();
		await shot('node-create-job');
	});

	it('runs the convert example from the canvas: the item, the machine file, the preview image', async () => {
		await openWorkflow(exampleIds.shopOrder);
		for (const name of ['New order', 'Verify signature', 'Digitise artwork', 'Answer with the job'])
			await canvasNode(name).waitFor();
		await shot('example-shop-order');
		await openWorkflow(exampleIds.conversion);
		await page.keyboard.press('Escape');
		// The canvas fades back in after Escape: the picture in docs/ is taken once it has.
		await page.waitForTimeout(500);
		await shot('example-convert-file');
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		const download = canvasNode('Download machine file');
		await download
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ timeout: 120_000 });
		const panel = (await openNode('Download machine file')).locator(
			'[data-test-id="output-panel"]',
		);
		await panel.getByText('1 item').first().waitFor();
		await panel.getByText(/has 1 warning: .*long jump/).waitFor();
		await shot('job-hints');
		await panel.locator('[data-test-id="radio-button-binary"]').click();
		await panel.getByText('Star.dst').waitFor();
		await panel.getByText('Star-preview.png').waitFor();
		expect(await panel.getByText('application/octet-stream').count()).toBeGreaterThan(0);
		await panel.locator('[data-test-id="ndv-view-binary-data"]').first().click();
		// n8n 2.x shows the file from its binary data route, 1.x as a data URL: either way a decoded image.
		const previewWidth = await page.waitForFunction(
			() =>
				Array.from(
					document.querySelectorAll('[data-test-id="output-panel"] img, [data-test-id="ndv"] img'),
				)
					.map((image) => image as HTMLImageElement)
					.filter((image) => /Star-preview\.png|^data:image\/png/.test(image.src))
					.reduce((widest, image) => Math.max(widest, image.naturalWidth), 0) || false,
		);
		expect(await previewWidth.jsonValue()).toBeGreaterThan(100);
		await shot('convert-output');
	});

	it('picks a job in the Job field From List, with search', async () => {
		const design = await readFile(join(examplesDir, 'files', 'Star.JEF'));
		const logo = await readFile(join(examplesDir, 'files', 'logo.svg'));
		const jobs = [
			await createJob(
				sandbox,
				{ workflow: 'conversion', format: 'dst' },
				{ name: 'Star.JEF', bytes: design },
			),
			await createJob(
				sandbox,
				{ workflow: 'digitising', format: 'pes', width_mm: '80', colour_count: '3' },
				{ name: 'logo.svg', bytes: logo },
			),
			await createJob(
				sandbox,
				{ workflow: 'conversion', format: 'exp' },
				{ name: 'team-badge.jef', bytes: design },
			),
		];
		for (const job of jobs) await waitForJobEnd(sandbox, job);
		await openWorkflow(pickerWorkflowId);
		await openNode('Get job');
		await ndv()
			.locator('[data-test-id="resource-locator-jobId"] [data-test-id="rlc-input"]')
			.click();
		const items = page.locator('[data-test-id="rlc-item"]');
		await items.first().waitFor();
		expect(await items.count()).toBeGreaterThanOrEqual(3);
		await page.waitForTimeout(500);
		await shot('job-picker');
		await page.keyboard.type('badge');
		await eventually(async () => (await items.count()) === 1, 60_000);
		expect(await items.allInnerTexts()).toEqual([
			expect.stringMatching(/^team-badge\.jef → EXP · conversion · completed/),
		]);
		await items.first().click();
		const chosen = async () =>
			await ndv()
				.locator('[data-test-id="resource-locator-jobId"]')
				.evaluate((picker) =>
					Array.from(picker.querySelectorAll('input'), (input) => input.value).join(' '),
				);
		await eventually(async () => (await chosen()).includes('team-badge.jef'), 60_000);
		expect(await chosen()).toMatch(/team-badge\.jef → EXP · conversion · completed/);
	});

	it("shows the newest ended job as the trigger's test event", async () => {
		const design = await readFile(join(examplesDir, 'files', 'Star.JEF'));
		const newest = await createJob(
			sandbox,
			{ workflow: 'conversion', format: 'vp3' },
			{ name: 'newest.jef', bytes: design },
		);
		await waitForJobEnd(sandbox, newest);
		await openWorkflow(exampleIds.finishedJobs);
		const trigger = await openNode('Job finished');
		await trigger.locator('[data-test-id="node-execute-button"]').click();
		const panel = trigger.locator('[data-test-id="output-panel"]');
		await panel.getByText(newest.id).first().waitFor();
		await panel.getByText('1 item').first().waitFor();
		await shot('trigger-node');
	});
});
