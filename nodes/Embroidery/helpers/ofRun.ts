/** What the items of one run (one execute() context) share, made on first use and dropped with the context. */
export function ofRun<T>(store: WeakMap<object, T>, context: object, create: () => T): T {
	let value = store.get(context);
	if (value === undefined) {
		value = create();
		store.set(context, value);
	}
	return value;
}
