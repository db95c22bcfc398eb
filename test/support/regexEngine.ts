/**
 * The regular expression engine n8n-workflow uses in the tests that run n8n-core. n8n-workflow 2.41 runs n8n's own
 * regular expressions (a resource locator's validation before a node runs, expression extensions, filters) in a
 * vm context with a limit of 250 ms of wall time, against patterns that would hang a server. In a clean-clone
 * `npm test` at load average 11 a job id's validation passed that limit once: the process was off the CPU, the
 * pattern (26 base-32 characters) takes microseconds. A limit of wall time that short races the machine, so
 * these tests give n8n-workflow the engine its own browser build falls back to: JavaScript's RegExp with the same
 * patterns and flags, without the limit. Every pattern it sees here is the node's or a test's.
 */
import { setSafeRegexEngine } from 'n8n-workflow';

const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);

export function useRegExpEngine(): void {
	setSafeRegexEngine({
		exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
		test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
		replace: (pattern, input, flags, replacement) =>
			input.replace(new RegExp(pattern, flags), replacement),
		matchAll: (pattern, input, flags) => [
			...input.matchAll(new RegExp(pattern, withGlobal(flags))),
		],
		split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
	});
}
