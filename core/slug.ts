import { randomBytes } from 'node:crypto';

/** Slugs are at most 64 characters (spec: Limits). */
export const SLUG_MAX = 64;

/** Lower-case ASCII words joined by single hyphens: `My Project ü` -> `my-project-u`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** A valid slug is its own slugification and at most 64 characters. */
export function isSlug(text: string): boolean {
  return text.length > 0 && text.length <= SLUG_MAX && slugify(text) === text;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * A slug for `name` (or the requested one) not yet taken: on collision a hyphen and 8 random base-36
 * characters are appended, keeping the whole within 64 characters.
 */
export async function uniqueSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  const slug = slugify(base) || 'x';
  if (!(await taken(slug))) return slug;
  for (;;) {
    const suffix = randomSuffix();
    const candidate = `${slug.slice(0, SLUG_MAX - suffix.length - 1).replace(/-+$/, '')}-${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
}

function randomSuffix(): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const byte of bytes) out += (byte % 36).toString(36);
  return out;
}
