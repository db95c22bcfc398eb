/** How the proxies in front of the sandbox name a request: by its v1 route, ids left out, so tests count by route. */
const ulidOrUploadId = /\/[0-9A-HJKMNP-TV-Z]{26}/g;

/** `GET /jobs`, `GET /jobs/conversion/{id}`, `GET /uploads/{id}/preview`… for a request's method and URL. */
export function routeOf(method: string, url: string): string {
	const path = url
		.split('?')[0]
		.replace(/^\/api\/v1/, '')
		.replace(ulidOrUploadId, '/{id}');
	return `${method} ${path}`;
}

/** Requests per route: `{ 'GET /jobs': 3, 'POST /jobs': 5, … }`. */
export function countByRoute(requests: Array<{ route: string }>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const request of requests) counts[request.route] = (counts[request.route] ?? 0) + 1;
	return counts;
}
