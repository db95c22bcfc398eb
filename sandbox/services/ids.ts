import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** A ULID stamped with the sandbox clock, increasing even within one millisecond. */
export function newId(now: number): string {
	return nextUlid(now);
}

export function isUlid(value: string): boolean {
	return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}
