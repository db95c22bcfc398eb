import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IBinaryKeyData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { downloadSignedFile, fileNameFromUrl, parameterAdvice, safeFileName } from '../transport';
import type { SourceFile } from './jobCreation/checks';

/** "data, artwork" -> ['data', 'artwork']; the parameter takes one or more binary field names. */
export function binaryPropertyNames(value: unknown): string[] {
	return String(value ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

/** Byte size from n8n's binary metadata without reading the file (inline data: from its base64 length). */
async function sizeOf(context: IExecuteFunctions, binary: IBinaryData): Promise<number> {
	// The store's own record comes first: a streamed upload announces exactly this many bytes.
	if (binary.id) {
		const metadata = await context.helpers.getBinaryMetadata(binary.id);
		if (typeof metadata.fileSize === 'number') return metadata.fileSize;
	}
	if (typeof binary.bytes === 'number') return binary.bytes;
	const base64 = binary.data ?? '';
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** The source files an item carries in the named binary fields; a clear error for a missing one. */
export async function describeSources(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyNames: string[],
): Promise<SourceFile[]> {
	if (propertyNames.length === 0) {
		throw new NodeOperationError(context.getNode(), `'Input Binary Fields' is empty`, {
			itemIndex,
			description: parameterAdvice.noInputBinaryFields,
		});
	}
	const item = context.getInputData()[itemIndex];
	const sources: SourceFile[] = [];
	for (const propertyName of propertyNames) {
		const binary = item?.binary?.[propertyName];
		if (!binary) {
			const available = Object.keys(item?.binary ?? {});
			throw new NodeOperationError(
				context.getNode(),
				`Item ${itemIndex} has no binary field "${propertyName}"`,
				{
					itemIndex,
					description: parameterAdvice.missingBinaryField(available),
				},
			);
		}
		sources.push({
			itemIndex,
			propertyName,
			fileName:
				binary.fileName ??
				`${propertyName}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`,
			mimeType: binary.mimeType ?? 'application/octet-stream',
			bytes: await sizeOf(context, binary),
			binaryId: binary.id,
		});
	}
	return sources;
}

/**
 * A source file that n8n's binary store streams while the request is being sent (and again if a 429
 * makes the transport send it again), so a batch of uploads is never held in memory.
 */
class StoredSourceFile extends File {
	constructor(
		private readonly byteLength: number,
		private readonly open: () => Promise<AsyncIterable<Uint8Array>>,
		name: string,
		type: string,
	) {
		super([], name, { type });
	}

	override get size(): number {
		return this.byteLength;
	}

	override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
		let chunks: AsyncIterator<Uint8Array> | undefined;
		const open = this.open;
		return new ReadableStream<Uint8Array<ArrayBuffer>>({
			async pull(controller) {
				chunks ??= (await open())[Symbol.asyncIterator]();
				const next = await chunks.next();
				if (next.done) controller.close();
				else controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
			},
			async cancel() {
				await chunks?.return?.();
			},
		});
	}
}

/**
 * A source as a named FormData file part: streamed from n8n's binary store when it keeps the file
 * there, otherwise read into memory (inline binary data is in memory already).
 */
export async function sourceFile(
	context: IExecuteFunctions,
	source: SourceFile & { content?: Buffer },
): Promise<File> {
	const binaryId = source.binaryId;
	if (binaryId) {
		const open = async () => await context.helpers.getBinaryStream(binaryId);
		return new StoredSourceFile(source.bytes, open, source.fileName, source.mimeType);
	}
	// A source fetched from a URL (jobCreation/urlSource.ts) is not on the item; it brings its bytes.
	const buffer =
		source.content ??
		(await context.helpers.getBinaryDataBuffer(source.itemIndex, source.propertyName));
	// The cast only narrows Buffer's ArrayBufferLike; File copies the bytes once either way.
	return new File([buffer as Uint8Array<ArrayBuffer>], source.fileName, { type: source.mimeType });
}

/** Streams a signed URL into n8n's binary data store (never whole in memory). */
export async function downloadToBinary(
	context: IExecuteFunctions | IPollFunctions,
	url: string,
	itemIndex?: number,
	known: { fileName?: string; mimeType?: string } = {},
): Promise<IBinaryData> {
	return await downloadSignedFile(context, url, itemIndex, async (file) => {
		const fileName = file.fileName ?? safeFileName(known.fileName) ?? fileNameFromUrl(url, 'file');
		const mimeType = file.mimeType ?? known.mimeType ?? 'application/octet-stream';
		return await context.helpers.prepareBinaryData(file.stream, fileName, mimeType);
	});
}

export function addBinary(target: IBinaryKeyData, name: string, binary: IBinaryData): string {
	let key = name;
	for (let n = 2; key in target; n++) key = `${name}_${n}`;
	target[key] = binary;
	return key;
}
