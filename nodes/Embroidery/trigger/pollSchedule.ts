/**
 * The trigger's schedule (its Poll Times) seen from one poll: the longest n8n can wait from one poll to the next.
 * A poll that finds neither a saved state nor a memory of its activation may be the first of an activation that n8n
 * did not poll at once (n8n 2.41's scheduler polls first at the schedule's next tick): the activation then came
 * after the schedule's previous tick, which is at most this long ago.
 */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
// A day with a clock change lasts an hour longer.
const clockChange = hour;

type PollTime = Record<string, unknown>;

function positiveInteger(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

/**
 * The longest wait between two ticks of one Poll Times entry, as n8n turns it into a cron expression; undefined for
 * a custom cron expression, whose ticks are not worked out here.
 */
function longestGapOf(item: PollTime): number | undefined {
	switch (item.mode) {
		case 'everyMinute':
			return minute;
		case 'everyHour':
			return hour;
		case 'everyDay':
			return day + clockChange;
		case 'everyWeek':
			return 7 * day + clockChange;
		case 'everyMonth': {
			// A day past the 28th is missing from some months: February's is skipped, two months apart at most.
			const dayOfMonth = positiveInteger(item.dayOfMonth) ?? 1;
			return (dayOfMonth <= 28 ? 31 : 62) * day + clockChange;
		}
		case 'everyX': {
			// n8n's cron steps within the hour (*/value minutes) or the day (*/value hours): the gap at the wrap is shorter.
			const value = positiveInteger(item.value);
			if (value === undefined) return undefined;
			if (item.unit === 'minutes') return value < 60 ? value * minute : hour;
			if (item.unit === 'hours') return value < 24 ? value * hour : day + clockChange;
			return undefined;
		}
		default:
			return undefined;
	}
}

/**
 * The longest n8n can wait between two polls of the trigger: the shortest of its Poll Times entries' longest gaps
 * (each entry ticks at least that often). Undefined when no entry tells (custom cron expressions only, or none).
 */
export function longestPollGapMs(pollTimes: unknown): number | undefined {
	const items = (pollTimes as { item?: unknown } | undefined)?.item;
	if (!Array.isArray(items)) return undefined;
	let shortest: number | undefined;
	for (const item of items) {
		if (typeof item !== 'object' || item === null) continue;
		const gap = longestGapOf(item as PollTime);
		if (gap !== undefined && (shortest === undefined || gap < shortest)) shortest = gap;
	}
	return shortest;
}
