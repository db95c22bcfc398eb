/**
 * What a reader tells the job about a file that ends early (cut short, without its end record, or in the
 * middle of a record): the design is read up to its last whole record, as machines and pyembroidery read
 * it, and the job says how much was read and, where the header declares it, how much there should be.
 */
import { countCommands } from '../normalise';
import { Command, type Pattern } from '../pattern';

const number = (value: number) => value.toLocaleString('en-US');

export interface Declared {
	count: number;
	/** What the header counts: 'stitches' or 'records'. */
	what: string;
	/** The same kind of count as read from the file. */
	read: number;
}

/**
 * Adds the job's warning to `pattern`: "The file ends early (without its END record): read 1,107 stitches,
 * 1,170 of the 2,567 records its header declares." `why` says how it ends.
 */
export function warnEndsEarly(pattern: Pattern, why: string, declared?: Declared): void {
	const stitches = countCommands(pattern, Command.Stitch);
	const read =
		declared === undefined
			? `read ${number(stitches)} stitches up to its last whole record`
			: declared.what === 'stitches'
				? `read ${number(declared.read)} of ${number(declared.count)} declared stitches`
				: `read ${number(stitches)} stitches, ${number(declared.read)} of the ` +
					`${number(declared.count)} ${declared.what} its header declares`;
	pattern.warnings.push(
		`The file ends early (${why}): ${read}. The rest of the design is missing; check the file.`,
	);
}
