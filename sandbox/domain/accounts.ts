export type Plan = 'free' | 'credits' | 'subscription' | 'internal';
export const plans: Plan[] = ['free', 'credits', 'subscription', 'internal'];

/** What an API key may do; each v1 route names the one it needs. */
export const abilities = ['formats:read', 'usage:read', 'jobs:read', 'jobs:write'] as const;
export type Ability = (typeof abilities)[number];
