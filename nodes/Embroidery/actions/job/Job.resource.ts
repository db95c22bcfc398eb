import type { EmbroideryResource } from '../types';
import * as create from './create.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as retry from './retry.operation';
import * as unlock from './unlock.operation';
import * as waitForCompletion from './waitForCompletion.operation';

/** Job's operations by value, in the order the AI tool lists them (the editor sorts them by name). */
export const operations = {
	create,
	get,
	getMany,
	waitForCompletion,
	unlock,
	download,
	retry,
} satisfies EmbroideryResource['operations'];

export const displayName = 'Job';
