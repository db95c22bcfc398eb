import type { FastifyInstance } from 'fastify';

import { artworkInputs } from '../../digitiser';
import { listFormats } from '../../engine';

/** GET /formats: every machine format with what the engine can do with it, and the artwork inputs. */
export async function formatRoutes(app: FastifyInstance): Promise<void> {
	app.get('/formats', { config: { ability: 'formats:read' } }, async () => ({
		data: listFormats().map(({ format, label, readable, writable, warning }) => ({
			format,
			label,
			readable,
			writable,
			warning,
		})),
		artworkInputs,
	}));
}
