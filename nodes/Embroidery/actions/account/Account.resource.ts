import type { EmbroideryResource } from '../types';
import * as getUsage from './getUsage.operation';

export const operations = { getUsage } satisfies EmbroideryResource['operations'];

export const displayName = 'Account';
