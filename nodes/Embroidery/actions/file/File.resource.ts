import type { EmbroideryResource } from '../types';
import * as download from './download.operation';

export const operations = { download } satisfies EmbroideryResource['operations'];

export const displayName = 'File';
