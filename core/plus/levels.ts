/**
 * Plan levels, as the reference names them. `free` is the level of an organization without a license. Apart from
 * license.ts, so the API's schemas (which the CLI loads on every command) do not load the JWT library.
 */
export const PLAN_LEVELS = ['free', 'pro', 'team', 'enterprise'] as const;
export type PlanLevel = (typeof PLAN_LEVELS)[number];
