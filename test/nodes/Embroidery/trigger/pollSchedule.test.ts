/**
 * longestPollGapMs: the longest n8n can wait between two polls of the trigger's Poll Times, which bounds how long
 * before a first scheduled poll the activation came.
 */
import { longestPollGapMs } from '../../../../nodes/Embroidery/trigger/pollSchedule';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('longestPollGapMs', () => {
	it.each([
		[{ mode: 'everyMinute' }, minute],
		[{ mode: 'everyHour', minute: 15 }, hour],
		[{ mode: 'everyX', value: 7, unit: 'minutes' }, 7 * minute],
		// n8n's */90 minutes ticks at minute 0 of every hour.
		[{ mode: 'everyX', value: 90, unit: 'minutes' }, hour],
		[{ mode: 'everyX', value: 5, unit: 'hours' }, 5 * hour],
		[{ mode: 'everyX', value: 30, unit: 'hours' }, day + hour],
		[{ mode: 'everyDay', hour: 9, minute: 0 }, day + hour],
		[{ mode: 'everyWeek', hour: 9, minute: 0, weekday: 1 }, 7 * day + hour],
		[{ mode: 'everyMonth', hour: 9, minute: 0, dayOfMonth: 1 }, 31 * day + hour],
		// The 31st: months without one are skipped.
		[{ mode: 'everyMonth', hour: 9, minute: 0, dayOfMonth: 31 }, 62 * day + hour],
	])('of %j is %d ms', (item, gap) => {
		expect(longestPollGapMs({ item: [item] })).toBe(gap);
	});

	it('of several entries is the shortest of their gaps, custom cron expressions aside', () => {
		const pollTimes = {
			item: [
				{ mode: 'everyDay', hour: 9, minute: 0 },
				{ mode: 'custom', cronExpression: '0 * * * * *' },
				{ mode: 'everyHour', minute: 30 },
			],
		};
		expect(longestPollGapMs(pollTimes)).toBe(hour);
	});

	it('is unknown for custom cron expressions only, no entries, or entries it cannot read', () => {
		expect(longestPollGapMs({ item: [{ mode: 'custom', cronExpression: '0 0 * * * *' }] })).toBe(
			undefined,
		);
		expect(longestPollGapMs({ item: [] })).toBeUndefined();
		expect(longestPollGapMs({})).toBeUndefined();
		expect(longestPollGapMs(undefined)).toBeUndefined();
		expect(longestPollGapMs({ item: [null, { mode: 'everyX', value: 0, unit: 'minutes' }] })).toBe(
			undefined,
		);
	});
});
