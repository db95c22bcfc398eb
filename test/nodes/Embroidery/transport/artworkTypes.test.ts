/** Which files digitising takes as artwork (helpers/artworkTypes.ts): the extension first, else the MIME type. */
import {
	artworkExtensions,
	artworkTypeOf,
} from '../../../../nodes/Embroidery/transport/artworkTypes';

describe('artworkTypeOf', () => {
	it('names the type from the extension, in any case, whatever the MIME type says', () => {
		expect(artworkTypeOf('logo.PNG', 'application/octet-stream')).toBe('png');
		expect(artworkTypeOf('photo.jpeg', undefined)).toBe('jpeg');
		expect(artworkTypeOf('mark.svg', 'image/png')).toBe('svg');
	});

	it('falls back to the MIME type when the name has no artwork extension', () => {
		expect(artworkTypeOf('upload', 'image/webp')).toBe('webp');
		expect(artworkTypeOf('scan.bin', 'IMAGE/JPEG')).toBe('jpg');
		expect(artworkTypeOf(undefined, 'image/svg+xml')).toBe('svg');
	});

	it('is null for a machine file or anything else that is not artwork', () => {
		expect(artworkTypeOf('design.pes', 'application/octet-stream')).toBeNull();
		expect(artworkTypeOf('notes.txt', 'text/plain')).toBeNull();
		expect(artworkTypeOf(undefined, undefined)).toBeNull();
	});

	it('accepts the types the spec names for digitising', () => {
		expect([...artworkExtensions]).toEqual(['jpg', 'jpeg', 'png', 'svg', 'webp']);
	});
});
