import { createHmac, timingSafeEqual } from 'node:crypto';

export type FileAccess = 'download' | 'preview';

/**
 * Signs private file URLs: HMAC-SHA256 over the upload id, its owner, the route and the expiry,
 * so a URL cannot be moved to another file, owner or route, nor extended.
 */
export class UrlSigner {
	constructor(private readonly secret: string) {}

	sign(uploadId: string, ownerId: string, access: FileAccess, expires: number): string {
		return createHmac('sha256', this.secret)
			.update(`${uploadId}\n${ownerId}\n${access}\n${expires}`)
			.digest('hex');
	}

	/** True when `signature` is exactly the one this sandbox would issue (compared in constant time). */
	verify(
		uploadId: string,
		ownerId: string,
		access: FileAccess,
		expires: number,
		signature: string,
	): boolean {
		const expected = Buffer.from(this.sign(uploadId, ownerId, access, expires), 'hex');
		const given = /^[0-9a-f]{64}$/i.test(signature)
			? Buffer.from(signature, 'hex')
			: Buffer.alloc(0);
		return given.length === expected.length && timingSafeEqual(given, expected);
	}
}
