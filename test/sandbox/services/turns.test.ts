/** Accounts taking turns for the engine: who gets the next engine process. */
import { AccountTurns } from '../../../sandbox/services/turns';

const head = (id: string, account: string) => ({ id, account_id: account });

describe('AccountTurns', () => {
	it('gives an idle process to the oldest queued job when accounts are even', () => {
		const turns = new AccountTurns();
		expect(turns.next([head('01B', 'b'), head('01A', 'a')], () => 0)?.id).toBe('01A');
		expect(turns.next([], () => 0)).toBeUndefined();
	});

	it('serves the account served longest ago first, whatever its jobs were queued behind', () => {
		const turns = new AccountTurns();
		const busy = new Map<string, number>();
		const order: string[] = [];
		// Account a queued four jobs before b queued one: b's waits behind one of a's, not four.
		const queue = [head('1', 'a'), head('2', 'a'), head('3', 'a'), head('4', 'a'), head('5', 'b')];
		while (queue.length) {
			const heads = ['a', 'b']
				.map((account) => queue.find((job) => job.account_id === account))
				.filter((job) => job !== undefined);
			const next = turns.next(heads, (account) => busy.get(account) ?? 0)!;
			turns.served(next.account_id);
			order.push(next.id);
			queue.splice(queue.indexOf(next), 1);
		}
		expect(order).toEqual(['1', '5', '2', '3', '4']);
	});

	it('prefers the account with fewer jobs processing, so one account cannot hold every process', () => {
		const turns = new AccountTurns();
		turns.served('b');
		turns.served('a');
		// a was served last, but b already has a job processing and a none.
		const busy: Record<string, number> = { a: 0, b: 1 };
		expect(turns.next([head('1', 'b'), head('2', 'a')], (account) => busy[account])?.id).toBe('2');
	});

	it('forgets its turns on clear', () => {
		const turns = new AccountTurns();
		turns.served('a');
		turns.clear();
		expect(turns.next([head('2', 'b'), head('1', 'a')], () => 0)?.id).toBe('1');
	});
});
