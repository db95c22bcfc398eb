/**
 * Math functions as module bindings. Hot pixel loops call these instead of `Math.x`:
 * inside a vm context (jest, sandboxed workers) every global lookup is slow.
 */
export const {
	abs,
	atan2,
	cbrt,
	ceil,
	cos,
	exp,
	floor,
	hypot,
	max,
	min,
	pow,
	round,
	sin,
	sqrt,
	PI,
} = Math;
