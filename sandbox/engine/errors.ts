/**
 * The engine's refusals, each with the API failure code a job ends with. They belong to the pattern
 * model, below the ceilings and the formats that throw them, so nothing has to import upwards to refuse.
 */

/** A source that no reader accepts, or that is malformed beyond recovery. */
export class UnreadableSourceError extends Error {
	readonly code = 'unreadable_source';
}

/** A pattern that cannot be written in the target format (for example, too large for its hoop). */
export class UnwritablePatternError extends Error {
	readonly code = 'unwritable_pattern';
}

/** A design that would take more work or memory than a job may use; see `ceilings`. */
export class PatternTooLargeError extends Error {
	readonly code = 'pattern_too_large';
}
