/** Why a digitising job failed, in the API's failure-code words. */
export type DigitiseErrorCode =
	| 'unreadable_artwork'
	| 'artwork_too_large'
	| 'empty_artwork'
	| 'stitch_limit_exceeded';

/** A digitising failure the user can act on: the message says what to change. */
export class DigitiseError extends Error {
	readonly code: DigitiseErrorCode;

	constructor(code: DigitiseErrorCode, message: string) {
		super(message);
		this.name = 'DigitiseError';
		this.code = code;
	}
}
