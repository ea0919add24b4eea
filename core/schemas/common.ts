import { z } from 'zod';
import { nameProblem } from '../name-rule.js';
import { isSlug, SLUG_MAX } from '../slug.js';

/** Shapes shared by every resource's wire format. */

export const uuidSchema = z.uuid({ error: 'must be a UUID' });
export const slugSchema = z
  .string()
  .max(SLUG_MAX, { error: `must be at most ${SLUG_MAX} characters` })
  .refine(isSlug, {
    error: 'must be a slug: lower-case letters, digits and single hyphens, e.g. my-project',
  });

/** Refines a string schema with the name rule (`core/name-rule.ts`); the empty string is left to `min`. */
export function withNameRule<S extends z.ZodString>(schema: S): S {
  return schema.superRefine((name, ctx) => {
    const problem = name === '' ? undefined : nameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** A resource name (organizations, projects, users): 1 to 64 characters, no leading or trailing space. */
export const nameSchema = withNameRule(
  z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' }),
);

export const dateTimeSchema = z.iso.datetime({ offset: true }).describe('RFC 3339 date and time (UTC)');

export function iso(date: Date): string {
  return date.toISOString();
}

/** Pagination and search query parameters of every list endpoint (reference: per_page default 8, max 255). */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(sorts: S) {
  return z.object({
    per_page: z.coerce.number().int().min(1).max(255).default(8).describe('Items per page (1-255)'),
    page: z.coerce.number().int().min(0).default(1).describe('1-based page; 0 and 1 both mean the first'),
    sort: z.enum(sorts).default(sorts[0]),
    direction: z.enum(['asc', 'desc']).default('asc'),
    search: z.string().min(1).optional().describe('Case-insensitive substring of name, slug or UUID'),
    name: z.string().min(1).optional().describe('Exact name'),
  });
}

export const allowedSchema = z.object({ allowed: z.boolean() });
