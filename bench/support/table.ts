/** Prints one benchmark's figures as an aligned text table with a title and notes under it. */
export function printTable(
	title: string,
	header: string[],
	rows: Array<Array<string | number>>,
	notes: string[] = [],
): void {
	const cells = [header, ...rows.map((row) => row.map(String))];
	const widths = header.map((_, column) =>
		Math.max(...cells.map((row) => (row[column] ?? '').length)),
	);
	const line = (row: string[]) =>
		row.map((cell, column) => cell.padStart(widths[column])).join('  ');
	console.log(`\n${title}`);
	console.log(line(header));
	console.log(widths.map((width) => '-'.repeat(width)).join('  '));
	for (const row of cells.slice(1)) console.log(line(row));
	for (const note of notes) console.log(`  ${note}`);
}

export function fixed(value: number, digits = 2): string {
	return value.toFixed(digits);
}
