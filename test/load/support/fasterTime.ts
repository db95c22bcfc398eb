import { defaultPacing } from '../../../nodes/Embroidery/transport/pacing';
import type { SandboxAdmin } from '../../support/sandbox';

/**
 * Runs the sandbox's clock `factor` times faster than real time (its per-minute rate windows, URL and source
 * lifetimes) and shrinks the node's pacing window by the same factor, so both sides still agree on what "a minute"
 * is: the node keeps below the service's 60 requests a minute, only the minute is shorter. Returns the undo.
 */
export function runTimeFaster(admin: SandboxAdmin, factor: number): () => Promise<void> {
	const realWindowMs = defaultPacing.windowMs;
	defaultPacing.windowMs = realWindowMs / factor;
	let ticking: Promise<unknown> = Promise.resolve();
	const timer = setInterval(() => {
		ticking = admin.advanceClock((factor - 1) / 4).catch(() => undefined);
	}, 250);
	return async () => {
		clearInterval(timer);
		await ticking;
		defaultPacing.windowMs = realWindowMs;
	};
}
