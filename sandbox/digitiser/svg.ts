import sharp from 'sharp';

import { startsWith } from './detect';
import { DigitiseError } from './errors';

/**
 * SVG artwork made safe for librsvg. The document is read here first and written out again
 * from what was checked: no DOCTYPE (its entities are expanded here, bounded), no processing
 * instructions, no comments, and no reference that leaves the document except embedded raster
 * images. librsvg therefore never opens a file or a connection, whatever the SVG asked for.
 */
export interface SafeSvg {
	/** Everything after the root element's start tag, re-serialised. */
	body: string;
	/** The root element's name (`svg`, or `prefix:svg`). */
	rootName: string;
	/** The root element's attributes, decoded. */
	rootAttributes: Array<[string, string]>;
	/** True when the root element has no content (`<svg/>`). */
	rootEmpty: boolean;
}

/** Deepest element nesting accepted; libxml2 itself stops at 256. */
const maxDepth = 256;
/** Most elements a render may draw once every `<use>` and `url(#…)` is expanded. */
const maxDrawnElements = 200_000;
/** Entities: how many may be declared, how long a value may be, how much text they may add. */
const maxEntities = 200;
const maxEntityLength = 4096;
const maxExpansion = 4_000_000;
/**
 * Pixels all embedded images together may decode to: 16 megapixels (4000 x 4000) is more than any
 * embedded picture needs once drawn at a stitchable size, and decodes in a second or two, where a
 * 49-megapixel PNG bomb inside an SVG took seconds of the engine (minutes on a loaded machine).
 */
const maxEmbeddedPixels = 16_000_000;
/**
 * Filter work a render may do, in passes of a blur over every pixel a primitive covers, counting each
 * primitive as often as it is drawn. Its time grows with the pixels drawn, not with the file: 40 chained
 * feMorphology filters of one rectangle held an engine process for its whole time limit from 2.9 KB, and
 * one blur of a 2-megapixel render takes about a second on a loaded machine. 8 passes still draw a drop
 * shadow (one blur and four cheap passes) on four elements.
 */
const maxFilterPasses = 8;
/** Passes of the primitives that cost about a blur; the others (offset, flood, merge, colour) a quarter. */
const fullPassPrimitives = new Set([
	'feGaussianBlur',
	'feDropShadow',
	'feDiffuseLighting',
	'feSpecularLighting',
	'feDisplacementMap',
	'feImage',
	'feTile',
]);
/** Octaves of one feTurbulence: each is a pass over every pixel it covers. */
const maxTurbulenceOctaves = 8;
/**
 * Primitives whose cost per pixel grows with a radius or kernel given in user units, which the artwork's
 * own scaling (a viewBox, a transform) turns into any number of pixels: nothing bounds them before drawing.
 */
/** Elements inside a filter primitive that are its settings, not passes of their own. */
const filterParts = /^fe(Func[RGBA]|MergeNode|DistantLight|PointLight|SpotLight)$/;
const unboundedPrimitives: Record<string, string> = {
	feMorphology: 'thickens or thins shapes by a radius',
	feConvolveMatrix: 'convolves with a kernel',
};

const tagName = /<([A-Za-z_][\w.:-]*)/y;
const attributePattern = /([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/y;

const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unsafe(reason: string): DigitiseError {
	return new DigitiseError('unreadable_artwork', `The SVG artwork was refused: ${reason}`);
}

function malformed(what: string): DigitiseError {
	return new DigitiseError(
		'unreadable_artwork',
		`The SVG artwork could not be decoded (${what}); export it again as a valid SVG.`,
	);
}

function escapeText(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
	return escapeText(text).replace(/"/g, '&quot;');
}

interface SvgElement {
	name: string;
	id: string | null;
	children: SvgElement[];
	/** Fragment ids this element draws or uses (`href="#a"`, `url(#a)`). */
	refs: string[];
	/** Blur passes of a filter primitive (`fe…` inside a `<filter>`), wherever it is drawn; 0 for the rest. */
	filterPasses: number;
}

/** Reads, checks and re-serialises an SVG; throws `unreadable_artwork` saying what was refused. */
export async function makeSvgSafe(bytes: Uint8Array): Promise<SafeSvg> {
	const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
	const reader = new SvgReader(text);
	const safe = reader.read();
	checkReferenceGraph(reader.root!);
	await checkEmbeddedImages(reader.embeddedImages);
	return safe;
}

function startTag(name: string, attributes: Array<[string, string]>): string {
	return `<${name}${attributes.map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('')}`;
}

/** The safe SVG as it stands, so sharp reads the canvas size librsvg gives it. */
export function wholeSvg(safe: SafeSvg): Buffer {
	return Buffer.from(
		startTag(safe.rootName, safe.rootAttributes) + (safe.rootEmpty ? '/>' : `>${safe.body}`),
	);
}

/**
 * The safe SVG drawn as a `width` x `height` picture of the part of its canvas given in
 * `box` (CSS pixels of the original canvas, whose size is `canvasWidth` x `canvasHeight`).
 */
export function croppedSvg(
	safe: SafeSvg,
	box: { x: number; y: number; width: number; height: number },
	canvasWidth: number,
	canvasHeight: number,
	width: number,
	height: number,
): Buffer {
	const placed = new Set(['width', 'height', 'x', 'y']);
	const attributes = safe.rootAttributes.filter(([name]) => !placed.has(name));
	const inner =
		`${startTag(safe.rootName, attributes)} x="0" y="0" width="${canvasWidth}" height="${canvasHeight}"` +
		(safe.rootEmpty ? '/>' : `>${safe.body}`);
	const outer =
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
		`viewBox="${box.x} ${box.y} ${box.width} ${box.height}" preserveAspectRatio="none">`;
	return Buffer.from(`${outer}${inner}</svg>`);
}

class SvgReader {
	private pos = 0;
	private readonly out: string[] = [];
	private readonly entities = new Map<string, string>();
	private expanded = 0;
	private readonly stack: SvgElement[] = [];
	private readonly openNames: string[] = [];
	private styleDepth = 0;
	root: SvgElement | null = null;
	readonly embeddedImages: Buffer[] = [];
	private rootName = '';
	private rootAttributes: Array<[string, string]> = [];
	private rootEmpty = false;
	private bodyStart = -1;

	constructor(private readonly text: string) {}

	read(): SafeSvg {
		const { text } = this;
		while (this.pos < text.length) {
			const lt = text.indexOf('<', this.pos);
			if (lt < 0) {
				this.characters(text.slice(this.pos));
				break;
			}
			if (lt > this.pos) this.characters(text.slice(this.pos, lt));
			this.pos = lt;
			if (text.startsWith('<!--', lt)) this.skipPast('-->', 'an unclosed comment');
			else if (text.startsWith('<![CDATA[', lt)) {
				const end = this.indexOrFail(']]>', lt + 9, 'an unclosed CDATA section');
				this.content(text.slice(lt + 9, end));
				this.pos = end + 3;
			} else if (text.startsWith('<?', lt)) this.processingInstruction();
			else if (/^<!DOCTYPE/i.test(text.slice(lt, lt + 9))) this.doctype();
			else if (text.startsWith('</', lt)) this.endTag();
			else this.startTag();
		}
		if (!this.root) throw malformed('no root element');
		if (this.openNames.length)
			throw malformed(`<${this.openNames[this.openNames.length - 1]}> is never closed`);
		return {
			body: this.bodyStart < 0 ? '' : this.out.slice(this.bodyStart).join(''),
			rootName: this.rootName,
			rootAttributes: this.rootAttributes,
			rootEmpty: this.rootEmpty,
		};
	}

	private indexOrFail(token: string, from: number, what: string): number {
		const index = this.text.indexOf(token, from);
		if (index < 0) throw malformed(what);
		return index;
	}

	private skipPast(token: string, what: string): void {
		this.pos = this.indexOrFail(token, this.pos, what) + token.length;
	}

	private processingInstruction(): void {
		const end = this.indexOrFail('?>', this.pos, 'an unclosed processing instruction');
		const target = /^<\?([^\s?]+)/.exec(this.text.slice(this.pos, end))?.[1] ?? '';
		if (target.toLowerCase() === 'xml-stylesheet') {
			throw unsafe(
				'it loads an outside style sheet (<?xml-stylesheet?>); put the styles inside the SVG.',
			);
		}
		// The XML declaration and other instructions carry nothing a picture needs.
		this.pos = end + 2;
	}

	/** Reads the DOCTYPE, keeping plain internal entities and refusing anything that reaches outside. */
	private doctype(): void {
		const { text } = this;
		let i = this.pos + 9;
		let subset = '';
		// An external DTD (PUBLIC/SYSTEM id) goes with the DOCTYPE: nothing will fetch it.
		while (i < text.length && text[i] !== '>' && text[i] !== '[') i++;
		if (text[i] === '[') {
			const close = this.indexOrFail(']', i, 'an unclosed DOCTYPE');
			subset = text.slice(i + 1, close);
			i = this.indexOrFail('>', close, 'an unclosed DOCTYPE');
		}
		if (i >= text.length) throw malformed('an unclosed DOCTYPE');
		this.readEntities(subset);
		this.pos = i + 1;
	}

	private readEntities(subset: string): void {
		const declarations = subset.replace(/<!--[\s\S]*?-->/g, '');
		const declaration = /<!(\w+)([^>"']|"[^"]*"|'[^']*')*>/g;
		let rest = declarations;
		for (const match of declarations.matchAll(declaration)) {
			rest = rest.replace(match[0], '');
			if (match[1] !== 'ENTITY') continue;
			const entity =
				/^<!ENTITY\s+(%\s+)?([\w.:-]+)\s+(?:(["'])([\s\S]*?)\3|(SYSTEM|PUBLIC)[\s\S]*)\s*>$/.exec(
					match[0],
				);
			if (!entity) throw malformed('a DOCTYPE entity declaration it cannot read');
			const [, parameter, name, , value, external] = entity;
			if (external)
				throw unsafe(
					`it declares an external entity (&${name};), which would read a file or a web address.`,
				);
			if (parameter)
				throw unsafe(
					'it declares parameter entities in its DOCTYPE; export it again as plain SVG.',
				);
			if (/[&%<]/.test(value)) {
				throw unsafe(
					`its entity &${name}; refers to other entities or holds markup (the "billion ` +
						`laughs" pattern); export it again as plain SVG.`,
				);
			}
			if (value.length > maxEntityLength)
				throw unsafe(`its entity &${name}; is longer than ${maxEntityLength} characters.`);
			if (!this.entities.has(name)) this.entities.set(name, value);
			if (this.entities.size > maxEntities)
				throw unsafe(`it declares more than ${maxEntities} entities.`);
		}
		if (rest.trim()) throw malformed('a DOCTYPE it cannot read');
	}

	/** Replaces character and entity references by their text. */
	private decode(raw: string): string {
		if (!raw.includes('&')) return raw;
		return raw.replace(/&([^;\s&<]*);?/g, (whole, name: string) => {
			if (!whole.endsWith(';')) throw malformed(`a stray "&" in "${raw.slice(0, 40)}"`);
			if (name.startsWith('#x') || name.startsWith('#X'))
				return codePoint(parseInt(name.slice(2), 16), raw);
			if (name.startsWith('#')) return codePoint(parseInt(name.slice(1), 10), raw);
			const known = predefined[name] ?? this.entities.get(name);
			if (known === undefined) throw malformed(`the undeclared entity &${name};`);
			this.expanded += known.length;
			if (this.expanded > maxExpansion)
				throw unsafe(
					`its entities expand to more than ${maxExpansion / 1_000_000} million characters.`,
				);
			return known;
		});
	}

	private characters(raw: string): void {
		if (!this.root) {
			if (raw.trim()) throw malformed('text before the root element');
			return;
		}
		if (raw.includes('<')) throw malformed('a stray "<"');
		this.content(this.decode(raw));
	}

	private content(value: string): void {
		if (!this.root) {
			if (value.trim()) throw malformed('text before the root element');
			return;
		}
		if (!this.openNames.length) {
			if (value.trim()) throw malformed('text after the root element');
			return;
		}
		if (this.styleDepth > 0) {
			// A rule applies its filter to every element it matches, which no reference records.
			if (/(^|[;{\s])filter\s*:\s*url/i.test(value))
				throw unsafe(
					'its style sheet applies a filter (filter: url(#…)) to every matching element; put ' +
						'filter="url(#…)" on the elements that need it, or convert the artwork to PNG.',
				);
			checkCss(value, this.stack[this.stack.length - 1]);
		}
		this.out.push(escapeText(value));
	}

	private endTag(): void {
		const end = this.indexOrFail('>', this.pos, 'an unclosed end tag');
		const name = this.text.slice(this.pos + 2, end).trim();
		const open = this.openNames.pop();
		if (open !== name)
			throw malformed(open ? `</${name}> closes <${open}>` : `</${name}> closes nothing`);
		if (localName(name) === 'style') this.styleDepth--;
		this.stack.pop();
		this.out.push(`</${name}>`);
		this.pos = end + 1;
	}

	private startTag(): void {
		const { text } = this;
		tagName.lastIndex = this.pos;
		const nameMatch = tagName.exec(text);
		if (!nameMatch) throw malformed('a stray "<"');
		const name = nameMatch[1];
		if (this.root && !this.openNames.length) throw malformed('a second root element');
		let i = this.pos + nameMatch[0].length;
		const attributes: Array<[string, string]> = [];
		let selfClosing = false;
		for (;;) {
			while (/\s/.test(text[i] ?? '')) i++;
			if (i >= text.length) throw malformed(`an unclosed <${name}> tag`);
			if (text[i] === '>') break;
			if (text.startsWith('/>', i)) {
				selfClosing = true;
				i++;
				break;
			}
			attributePattern.lastIndex = i;
			const attribute = attributePattern.exec(text);
			if (!attribute) throw malformed(`an attribute of <${name}> it cannot read`);
			const attributeName = attribute[1];
			if (attributes.some(([existing]) => existing === attributeName))
				throw malformed(`a repeated ${attributeName} on <${name}>`);
			attributes.push([attributeName, this.decode(attribute[3] ?? attribute[4])]);
			i += attribute[0].length;
		}
		this.pos = i + 1;
		if (this.openNames.length + 1 > maxDepth)
			throw unsafe(`it nests elements more than ${maxDepth} deep.`);
		const element = this.checkElement(name, attributes);
		const kept =
			localName(name) === 'a'
				? attributes.filter(([attribute]) => localName(attribute) !== 'href')
				: attributes;
		if (!this.root) {
			if (localName(name) !== 'svg') throw malformed(`the root element is <${name}>, not <svg>`);
			this.root = element;
			this.rootName = name;
			this.rootAttributes = kept;
			this.rootEmpty = selfClosing;
			this.bodyStart = this.out.length;
		} else {
			this.stack[this.stack.length - 1].children.push(element);
			this.out.push(startTag(name, kept) + (selfClosing ? '/>' : '>'));
		}
		if (!selfClosing) {
			this.stack.push(element);
			this.openNames.push(name);
			if (localName(name) === 'style') this.styleDepth++;
		} else if (element === this.root) {
			this.openNames.length = 0;
		}
		if (element === this.root && selfClosing) this.bodyStart = this.out.length;
	}

	/** Refuses what reaches outside the document; records in-document references for the cycle check. */
	private checkElement(name: string, attributes: Array<[string, string]>): SvgElement {
		const local = localName(name);
		if (local === 'include') throw unsafe(`it includes another file (<${name}>).`);
		const inFilter = this.stack.some((open) => localName(open.name) === 'filter');
		const element: SvgElement = {
			name,
			id: null,
			children: [],
			refs: [],
			filterPasses:
				inFilter && local.startsWith('fe') && !filterParts.test(local)
					? filterPasses(local, attributes)
					: 0,
		};
		for (const [attribute, value] of attributes) {
			const attributeLocal = localName(attribute);
			if (attribute === 'id' || attribute === 'xml:id') element.id = value;
			if (attributeLocal === 'href' || attributeLocal === 'src') {
				if (local === 'a') continue;
				const target = value.trim();
				if (target.startsWith('#')) element.refs.push(target.slice(1));
				else if (/^data:/i.test(target) && (local === 'image' || local === 'feImage'))
					this.embeddedImages.push(dataImage(target));
				else
					throw unsafe(
						`<${name}> refers to "${target.slice(0, 80)}" outside the SVG; embed images as ` +
							`data: PNG or JPEG, or convert the artwork to PNG.`,
					);
			} else if (attribute === 'style') {
				checkCss(value, element);
			} else if (/url\s*\(/i.test(value)) {
				element.refs.push(...fragmentUrls(value, name));
			}
		}
		return element;
	}
}

function localName(name: string): string {
	const colon = name.lastIndexOf(':');
	return colon < 0 ? name : name.slice(colon + 1);
}

function codePoint(value: number, raw: string): string {
	if (!Number.isFinite(value) || value <= 0 || value > 0x10ffff)
		throw malformed(`a bad character reference in "${raw.slice(0, 40)}"`);
	return String.fromCodePoint(value);
}

/** The fragment ids of every `url(…)` in a value; anything but `url(#id)` is refused. */
function fragmentUrls(value: string, elementName: string): string[] {
	const ids: string[] = [];
	for (const match of value.matchAll(/url\s*\(\s*(["']?)([^"')]*)\1\s*\)/gi)) {
		const target = match[2].trim();
		if (!target.startsWith('#')) {
			throw unsafe(
				`<${elementName}> refers to "${target.slice(0, 80)}" outside the SVG with url(); only url(#id) is allowed.`,
			);
		}
		ids.push(target.slice(1));
	}
	// A url( the pattern above could not read is refused rather than guessed at.
	if ((value.match(/url\s*\(/gi) ?? []).length !== ids.length)
		throw unsafe(`<${elementName}> has a url() it cannot read.`);
	return ids;
}

/** Style text: no imports, no escapes that could spell a hidden url(, only url(#id). */
function checkCss(css: string, element: SvgElement): void {
	if (/@import/i.test(css))
		throw unsafe('its styles import another style sheet (@import); put the styles inside the SVG.');
	if (css.includes('\\'))
		throw unsafe(
			'its styles use CSS escapes (\\), which could hide a reference to a file; remove them.',
		);
	element.refs.push(...fragmentUrls(css, element.name));
}

/** Decodes a data: URI of an embedded image; only PNG, JPEG, GIF and WebP (judged by content) are accepted. */
function dataImage(uri: string): Buffer {
	const comma = uri.indexOf(',');
	if (comma < 0) throw unsafe('an embedded image is not a valid data: URI.');
	const meta = uri.slice(5, comma);
	const payload = uri.slice(comma + 1);
	const bytes = /;base64$/i.test(meta)
		? Buffer.from(payload.replace(/\s+/g, ''), 'base64')
		: Buffer.from(decodeURIComponent(payload), 'latin1');
	const is = (signature: number[], offset = 0) => startsWith(bytes, signature, offset);
	const raster =
		is([0x89, 0x50, 0x4e, 0x47]) ||
		is([0xff, 0xd8, 0xff]) ||
		is([0x47, 0x49, 0x46, 0x38]) ||
		(is([0x52, 0x49, 0x46, 0x46]) && is([0x57, 0x45, 0x42, 0x50], 8));
	if (!raster)
		throw unsafe(
			'an embedded image is not PNG, JPEG, GIF or WebP (an embedded SVG could reach outside itself).',
		);
	return bytes;
}

async function checkEmbeddedImages(images: Buffer[]): Promise<void> {
	let pixels = 0;
	for (const image of images) {
		let width = 0;
		let height = 0;
		try {
			({ width = 0, height = 0 } = await sharp(image, { limitInputPixels: false }).metadata());
		} catch {
			throw unsafe('an embedded image cannot be decoded.');
		}
		pixels += width * height;
		if (pixels > maxEmbeddedPixels) {
			throw new DigitiseError(
				'artwork_too_large',
				`The SVG embeds images of more than ${maxEmbeddedPixels / 1_000_000} megapixels in all; send smaller images.`,
			);
		}
	}
}

/** What a filter primitive costs in blur passes; refuses one whose cost per pixel nothing in the file bounds. */
function filterPasses(local: string, attributes: Array<[string, string]>): number {
	const what = unboundedPrimitives[local];
	if (what) {
		throw unsafe(
			`it uses an SVG filter <${local}>, which ${what} that the artwork's scaling can make ` +
				`any size, so its drawing time has no bound; remove the filter effect or convert the artwork to PNG.`,
		);
	}
	if (local === 'feTurbulence') {
		const octaves = Number(attributes.find(([name]) => name === 'numOctaves')?.[1] ?? 1);
		if (!(octaves <= maxTurbulenceOctaves))
			throw unsafe(
				`its <feTurbulence> asks for ${attributes.find(([name]) => name === 'numOctaves')?.[1]} ` +
					`octaves; at most ${maxTurbulenceOctaves} are drawn.`,
			);
		return Math.max(1, octaves) / 2;
	}
	return fullPassPrimitives.has(local) ? 1 : 0.25;
}

/**
 * Refuses `<use>`/`url(#…)` loops and references that multiply into too many drawn elements
 * (a "billion laughs" of nested `<use>`), counting each element as often as it would be drawn.
 */
function checkReferenceGraph(root: SvgElement): void {
	const byId = new Map<string, SvgElement>();
	const all: SvgElement[] = [];
	const pending = [root];
	while (pending.length) {
		const element = pending.pop()!;
		all.push(element);
		if (element.id !== null && !byId.has(element.id)) byId.set(element.id, element);
		pending.push(...element.children);
	}
	const cost = new Map<SvgElement, number>();
	/** Filter passes run each time the element is drawn. */
	const filterCost = new Map<SvgElement, number>();
	const onPath = new Set<SvgElement>();
	// Iterative depth-first search: a chain of thousands of references must not overflow the stack.
	const visit = (start: SvgElement) => {
		const frames: Array<{ element: SvgElement; next: SvgElement[] }> = [];
		const enter = (element: SvgElement) => {
			onPath.add(element);
			const next = [...element.children];
			for (const id of element.refs) {
				const target = byId.get(id);
				if (target) next.push(target);
			}
			frames.push({ element, next });
		};
		enter(start);
		while (frames.length) {
			const frame = frames[frames.length - 1];
			const child = frame.next.pop();
			if (child) {
				if (onPath.has(child)) {
					throw unsafe(
						`its <${child.name}${child.id ? ` id="${child.id}"` : ''}> refers back to itself ` +
							`through <use> or url(#…), an endless loop.`,
					);
				}
				if (!cost.has(child)) enter(child);
				continue;
			}
			let total = 1;
			let filters = frame.element.filterPasses;
			for (const element of frame.element.children) {
				total += cost.get(element)!;
				// A <filter> is never drawn where it stands, only by the elements that refer to it.
				if (localName(element.name) !== 'filter') filters += filterCost.get(element)!;
			}
			for (const id of frame.element.refs) {
				const target = byId.get(id);
				if (target) {
					total += cost.get(target)!;
					filters += filterCost.get(target)!;
				}
			}
			if (filters > maxFilterPasses) {
				throw unsafe(
					`its filter effects would take at least ${filters} passes over the pixels they cover (a blur ` +
						`is one, an offset or a colour change a quarter, counted each time a filtered element ` +
						`is drawn); at most ${maxFilterPasses} are drawn. Simplify or remove the filter ` +
						`effects, or convert the artwork to PNG.`,
				);
			}
			filterCost.set(frame.element, filters);
			if (total > maxDrawnElements) {
				throw unsafe(
					`its <use> and url(#…) references multiply into more than ${maxDrawnElements} drawn elements.`,
				);
			}
			cost.set(frame.element, total);
			onPath.delete(frame.element);
			frames.pop();
		}
	};
	for (const element of all) if (!cost.has(element)) visit(element);
}
