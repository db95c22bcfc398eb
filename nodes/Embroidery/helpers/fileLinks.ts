import type { IDataObject } from 'n8n-workflow';

import type { Job, JobListItem } from '../transport';
import type { KnownJob } from './knownJob';

// Which signed link each of a job's files has. The spec defines the listing's `source`, `preview` and
// `output` and the detailed job's `source` as PrivateFile (`downloadUrl`, `previewUrl`); the detailed job's
// `outputs` and `artifacts` are open-ended objects whose shape it does not show. So a PrivateFile's link comes
// first, and an open-ended object is searched, whatever its shape, only when no PrivateFile link is usable.

export type FileKind = 'outputs' | 'preview' | 'source';

/** One file of a job: its link when the node can use it, otherwise why not (field names only, never values). */
export interface FileLink {
	url: string | null;
	fileName?: string;
	mimeType?: string;
	/** Set when `url` is null: what the file object holds instead of a usable link. */
	unusable?: string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function record(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/**
 * Whether the node can fetch this link: an absolute http(s) URL that WHATWG's URL parser accepts (it refuses,
 * for example, a host whose last label is a number, `files.example.123`, which looser checks let through).
 */
export function isUsableLink(link: unknown): link is string {
	if (typeof link !== 'string') return false;
	try {
		const url = new URL(link);
		return url.protocol === 'https:' || url.protocol === 'http:';
	} catch {
		return false;
	}
}

/** A string that is meant as a link, usable or not: what a field holding it is reported as. */
function looksLikeLink(value: unknown): value is string {
	return typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim());
}

const linkOfPrivateFile: Record<FileKind, Array<'downloadUrl' | 'previewUrl'>> = {
	source: ['downloadUrl'],
	outputs: ['downloadUrl'],
	preview: ['previewUrl', 'downloadUrl'],
};

/** The link of a spec-defined PrivateFile, or what its link fields hold. */
export function privateFileLink(file: IDataObject, kind: FileKind): FileLink {
	const named = { fileName: text(file.name), mimeType: text(file.mimeType) };
	const keys = linkOfPrivateFile[kind];
	const url = keys.map((key) => file[key]).find(isUsableLink);
	if (url !== undefined) return { url, ...named };
	const held = keys.map((key) =>
		file[key] === null || file[key] === undefined
			? `${key} is ${String(file[key])}`
			: `${key} is not a URL the node can read`,
	);
	return { url: null, ...named, unusable: held.join(', ') };
}

interface Found {
	path: string;
	value: unknown;
	depth: number;
}

/** Every value of an object and of the objects and arrays inside it (a few levels deep), with its path. */
function walk(value: unknown, path = '', depth = 0, found: Found[] = []): Found[] {
	if (depth > 4) return found;
	const entries = Array.isArray(value)
		? value.map((inner, index) => [`${path}[${index}]`, inner] as const)
		: Object.entries(record(value) ?? {}).map(
				([key, inner]) => [path ? `${path}.${key}` : key, inner] as const,
			);
	for (const [innerPath, inner] of entries) {
		found.push({ path: innerPath, value: inner, depth });
		if (typeof inner === 'object' && inner !== null) walk(inner, innerPath, depth + 1, found);
	}
	return found;
}

const preferredKeys: Record<FileKind, string[]> = {
	source: ['downloadUrl', 'url', 'href'],
	outputs: ['downloadUrl', 'url', 'href', 'link', 'signedUrl'],
	preview: ['previewUrl', 'downloadUrl', 'url', 'href', 'link', 'signedUrl'],
};

/** Lower is better: a known link field first, then a path that names the kind, then the shallowest. */
function rank(found: Found, kind: FileKind): number {
	const key = found.path.split(/[.[]/).pop() ?? '';
	const known = preferredKeys[kind].indexOf(key);
	const namesKind = new RegExp(kind === 'preview' ? 'preview' : 'download', 'i').test(found.path);
	return (
		(known === -1 ? preferredKeys[kind].length : known) * 100 + (namesKind ? 0 : 50) + found.depth
	);
}

/** The field names of an object (top level and one level in), for an error that says what a file carried. */
function fieldNames(file: unknown): string {
	const names = walk(file)
		.filter((found) => found.depth <= 1)
		.sort((a, b) => a.depth - b.depth)
		.map((found) => found.path.replace(/\[\d+\]/g, '[]'));
	const unique = [...new Set(names)];
	if (unique.length === 0) return 'no fields';
	return unique.length > 12
		? `${unique.slice(0, 12).join(', ')} and ${unique.length - 12} more`
		: unique.join(', ');
}

/** The link of an open-ended file object, whatever its shape: a known field, a link nested in objects or arrays. */
export function openFileLink(file: unknown, kind: FileKind): FileLink {
	const object = record(file) ?? {};
	const named = { fileName: text(object.name), mimeType: text(object.mimeType) };
	// A preview link beside a locked file is the watermarked image, never the file itself.
	const links = walk(file)
		.filter(
			(found) => looksLikeLink(found.value) && (kind === 'preview' || !/preview/i.test(found.path)),
		)
		.sort((a, b) => rank(a, kind) - rank(b, kind));
	const usable = links.find((found) => isUsableLink(found.value));
	if (usable) return { url: usable.value as string, ...named };
	const refused = links.map((found) => `${found.path} is not a URL the node can read`);
	return { url: null, ...named, unusable: [...refused, `fields: ${fieldNames(file)}`].join('; ') };
}

function sameFile(a: IDataObject, b: unknown): boolean {
	const other = record(b);
	if (!other) return false;
	if (text(a.id) !== undefined && text(a.id) === text(other.id)) return true;
	return text(a.name) !== undefined && text(a.name) === text(other.name);
}

/** The detailed job's open-ended objects of a kind; for a preview, only the artifacts that carry a link. */
function openFilesOf(detail: Job | undefined, kind: FileKind): unknown[] {
	if (!detail || kind === 'source') return [];
	return ((kind === 'outputs' ? detail.outputs : detail.artifacts) ?? []) as unknown[];
}

function privateFileOf(job: KnownJob, kind: FileKind): IDataObject | undefined {
	const { listed, detail } = job;
	if (kind === 'source') {
		// Both are PrivateFiles: the one whose link is usable, else the listing's.
		const both = [record(listed?.source), record(detail?.source)].filter(
			(file): file is IDataObject => file !== undefined,
		);
		return both.find((file) => privateFileLink(file, kind).url !== null) ?? both[0];
	}
	return record(kind === 'outputs' ? listed?.output : listed?.preview);
}

/**
 * The files of one kind a job carries, each with its link: the PrivateFile's when usable, else the matching
 * open-ended object's (or the only one's), then any further open-ended files the PrivateFile does not name.
 */
export function fileLinksOf(job: KnownJob, kind: FileKind): FileLink[] {
	const spec = privateFileOf(job, kind);
	const open = openFilesOf(job.detail, kind);
	const openLinks = (files: unknown[]) => {
		const links = files.map((file) => openFileLink(file, kind));
		// Artifacts other than previews may carry no link; when none does, the first says what was found.
		if (kind !== 'preview') return links;
		const usable = links.filter((link) => link.url !== null);
		return usable.length > 0 || links.length === 0 ? usable : [links[0]];
	};
	if (!spec) return openLinks(open);
	const matching = open.filter((file) => sameFile(spec, file) || open.length === 1);
	const others = open.filter((file) => !matching.includes(file));
	const specLink = privateFileLink(spec, kind);
	const fallback =
		specLink.url === null ? openLinks(matching).find((link) => link.url !== null) : undefined;
	const first = fallback
		? { ...fallback, fileName: fallback.fileName ?? specLink.fileName }
		: specLink;
	return [first, ...openLinks(others).filter((link) => link.url !== null)];
}

/**
 * The listing entry's files whose link is present but unusable, one note each, so Get Many can list the job
 * and say which file's link the node could not read.
 */
export function unusableListedLinks(item: JobListItem): IDataObject[] {
	const files: Array<[string, unknown]> = [
		['source', item.source],
		['preview', item.preview],
		['output', item.output],
	];
	const notes: IDataObject[] = [];
	for (const [label, value] of files) {
		const file = record(value);
		if (!file) continue;
		const keys = ['downloadUrl', 'previewUrl'] as const;
		const broken = keys.filter(
			(key) => file[key] !== null && file[key] !== undefined && !isUsableLink(file[key]),
		);
		if (broken.length === 0) continue;
		notes.push({
			kind: label,
			fileName: text(file.name) ?? null,
			error: `The ${broken.join(' and ')} of this ${label} is not a URL the node can read; only this file is affected`,
		});
	}
	return notes;
}
