import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';

/** The pages' only script and style sheet, as files, so the CSP can forbid every inline one. */
const assets = {
	'copy.js': 'text/javascript; charset=utf-8',
	'pages.css': 'text/css; charset=utf-8',
} as const;
type AssetName = keyof typeof assets;

const assetParams = {
	type: 'object',
	required: ['name'],
	properties: { name: { type: 'string', enum: Object.keys(assets) } },
} as const;

export async function assetRoutes(app: FastifyInstance): Promise<void> {
	const folder = join(__dirname, '..', '..', 'pages', 'assets');
	const contents = new Map(
		Object.keys(assets).map((name) => [name, readFileSync(join(folder, name))] as const),
	);
	app.get<{ Params: { name: AssetName } }>(
		'/assets/:name',
		{ schema: { params: assetParams }, config: { page: 'anyone' } },
		async (request, reply) =>
			reply
				.type(assets[request.params.name])
				.header('Cache-Control', 'no-cache')
				.send(contents.get(request.params.name)),
	);
}
