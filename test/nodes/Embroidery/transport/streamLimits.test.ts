import { Readable } from 'node:stream';

import {
	limitedStream,
	type ByteStream,
} from '../../../../nodes/Embroidery/transport/streamLimits';

describe('limitedStream', () => {
	it('ended by Stop before anything reads it: no uncaught error, and a later reader gets the cancel', async () => {
		const uncaught: unknown[] = [];
		const onUncaught = (error: unknown) => uncaught.push(error);
		process.prependListener('uncaughtException', onUncaught);
		try {
			// A body that has sent its headers and stalls: nothing reads it yet.
			const source = new Readable({ read() {} }) as ByteStream;
			const cancel = new AbortController();
			let stopped = 0;
			const cancelled = new Error('The execution was cancelled');
			const limited = limitedStream(
				source,
				{
					idle: { ms: 60_000, error: () => new Error('idle') },
					cancel: { signal: cancel.signal, error: () => cancelled },
				},
				() => stopped++,
			);
			cancel.abort();
			// Past the ticks in which a destroyed stream emits 'error' and 'close'.
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(uncaught).toEqual([]);
			expect(stopped).toBe(1);
			expect(limited.failure()).toBe(cancelled);
			await expect(
				(async () => {
					for await (const chunk of limited.stream) void chunk;
				})(),
			).rejects.toBe(cancelled);
		} finally {
			process.off('uncaughtException', onUncaught);
		}
	});
});
