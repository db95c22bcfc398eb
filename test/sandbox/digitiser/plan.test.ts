import { trimsInsideBlocks, sew, shapePng } from './support/shapes';

/**
 * Three blue squares in a row (at 50 mm, 1/6 mm a pixel: 8.3 mm squares). The first and third are
 * joined by a red bar beneath them, sewn after the blue, so a travel run under the bar connects
 * them; the middle one stands 3.3 mm apart on bare fabric, nearer to the first than the third is.
 */
const pieces =
	'<rect x="10" y="10" width="50" height="50" fill="#0064c8"/>' +
	'<rect x="80" y="10" width="30" height="30" fill="#0064c8"/>' +
	'<rect x="200" y="10" width="50" height="50" fill="#0064c8"/>' +
	'<rect x="30" y="60" width="200" height="20" fill="#e60000"/>';

describe('the order of the pieces of one colour', () => {
	it('sews the pieces a hidden run reaches before jumping away: one trim, for the piece apart', async () => {
		// Nearest first would go to the middle square (a trim) and from there to the third (another).
		const pattern = await sew(await shapePng(pieces, 300, 100), 50, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(1);
	});

	it('chains pieces joined under a later colour with no trim at all', async () => {
		const chained = pieces + '<rect x="90" y="40" width="10" height="20" fill="#e60000"/>';
		const pattern = await sew(await shapePng(chained, 300, 100), 50, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
	});
});
