import { dstFormat } from './dst';
import type { FormatModule } from './format';
import { pesFormat } from './pes';

/**
 * Every known format, in the order detection tries them (most distinctive magic first).
 * Each format module registers itself here with one line.
 */
export const formatModules: FormatModule[] = [
	pesFormat,
	dstFormat,
];
