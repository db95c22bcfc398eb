import { clock } from './clock';
import type { FileStream } from './context';

export type ByteStream = Exclude<FileStream, Buffer>;

/** What a streamed body may do before it is ended; each limit brings the error the reader gets. */
export interface StreamLimits {
	/** No byte for this long ends it. */
	idle: { ms: number; error: () => Error };
	/** The whole transfer, counted from `startedAt`. */
	total?: { ms: number; startedAt: number; error: () => Error };
	/** More bytes than this end it at the chunk that crosses the line. */
	size?: { maxBytes: number; error: () => Error };
	/** The execution's Stop: ends it at once. */
	cancel?: { signal: AbortSignal; error: () => Error };
}

export interface LimitedStream {
	stream: ByteStream;
	/** The limit that ended the stream, if one did: the error to show instead of the pipe's own. */
	failure(): Error | undefined;
	/** Bytes passed on so far. */
	bytes(): number;
}

/**
 * Passes a response body on while it keeps within `limits`; the first limit crossed destroys the stream with
 * its error and calls `stop`, which ends the request underneath (a stalled socket would keep it open).
 * The watch reads the node's clock and ends with the stream.
 */
export function limitedStream(
	source: ByteStream,
	limits: StreamLimits,
	stop: () => void,
): LimitedStream {
	let lastByteAt = clock.now();
	let bytes = 0;
	let failure: Error | undefined;
	const counted = source.map((chunk: Uint8Array) => {
		lastByteAt = clock.now();
		bytes += chunk.length;
		if (limits.size && bytes > limits.size.maxBytes) {
			failure ??= limits.size.error();
			stop();
			throw failure;
		}
		return chunk;
	}) as ByteStream;
	const end = (error: Error) => {
		if (counted.destroyed) return;
		failure ??= error;
		counted.destroy(failure);
		stop();
	};
	// The stream may be ended before its reader attaches (a Stop between the answer's headers and the upload
	// that reads the body): with no listener, its 'error' would be thrown as an uncaught exception and end n8n.
	// A reader that attaches later still gets the error from the destroyed stream, and `failure()` has it.
	counted.on('error', () => undefined);
	const ended = new AbortController();
	counted.once('close', () => ended.abort());
	const onCancel = () => end(limits.cancel!.error());
	if (limits.cancel?.signal.aborted) onCancel();
	limits.cancel?.signal.addEventListener('abort', onCancel, { once: true });
	counted.once('close', () => limits.cancel?.signal.removeEventListener('abort', onCancel));
	const watch = async () => {
		for (;;) {
			const now = clock.now();
			const idleLeft = limits.idle.ms - (now - lastByteAt);
			const totalLeft = limits.total ? limits.total.ms - (now - limits.total.startedAt) : Infinity;
			if (idleLeft <= 0) return end(limits.idle.error());
			if (totalLeft <= 0) return end(limits.total!.error());
			await clock.sleep(Math.min(idleLeft, totalLeft), ended.signal);
		}
	};
	watch().catch(() => undefined);
	return { stream: counted, failure: () => failure, bytes: () => bytes };
}
