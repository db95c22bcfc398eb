import type { EmbroideryResource } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies EmbroideryResource['operations'];

export const displayName = 'Format';
