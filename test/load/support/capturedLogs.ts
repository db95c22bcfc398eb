import { createRequire } from 'node:module';

// n8n-core resolves its own copies of the DI container and logger; the node's `context.logger` is that one.
const coreRequire = createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');
const { Logger } = coreRequire('@n8n/backend-common') as typeof import('@n8n/backend-common');

const levels = ['error', 'warn', 'info', 'debug'] as const;
const consoleMethods = ['error', 'warn', 'info', 'log', 'debug'] as const;

/**
 * Records every line given to n8n's logger (all levels: the node's `context.logger` is the container's Logger,
 * which this replaces with a recorder, since a silent logger's levels cannot be patched) and to the console,
 * until `stop()`.
 */
export function captureLogs() {
	const lines: string[] = [];
	const record = (level: string, args: unknown[]) => {
		lines.push(
			`${level}: ${args.map((arg) => (typeof arg === 'string' ? arg : safeJson(arg))).join(' ')}`,
		);
	};
	const original = Container.get(Logger);
	const recorder: Record<string, unknown> = { scoped: () => recorder };
	for (const level of levels) recorder[level] = (...args: unknown[]) => record(level, args);
	Container.set(Logger, recorder as unknown as InstanceType<typeof Logger>);
	const restore: Array<() => void> = [() => Container.set(Logger, original)];
	for (const method of consoleMethods) {
		const originalMethod = console[method];
		console[method] = (...args: unknown[]) => {
			record(`console.${method}`, args);
			originalMethod.apply(console, args);
		};
		restore.push(() => (console[method] = originalMethod));
	}
	return {
		lines,
		stop(): string[] {
			for (const undo of restore.splice(0)) undo();
			return lines;
		},
	};
}

function safeJson(value: unknown): string {
	if (value instanceof Error)
		return `${value.name}: ${value.message} ${value.stack ?? ''} ${safeJson({ ...value })}`;
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
