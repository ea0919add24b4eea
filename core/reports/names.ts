import { measureFor } from '../dimensions/measures-catalogue.js';
import { InputError, NotFoundError } from '../errors.js';
import { isSlug, isUuid, slugify, uniqueSlug } from '../slug.js';
import type { DimensionRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';

const NAME_MAX = { benchmark: 1024, measure: 64 } as const;

/**
 * Matches keys to rows by NameId rules (UUID, then slug, then name). A UUID that matches nothing is a 404; other
 * keys that match nothing are returned as missing.
 */
export function matchNamed(
  kind: string,
  keys: readonly string[],
  rows: readonly DimensionRecord[],
): { found: Map<string, DimensionRecord>; missing: string[] } {
  const byUuid = new Map(rows.map((r) => [r.uuid, r]));
  const bySlug = new Map(rows.map((r) => [r.slug, r]));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const found = new Map<string, DimensionRecord>();
  const missing: string[] = [];
  for (const key of keys) {
    const row = isUuid(key)
      ? byUuid.get(key.toLowerCase())
      : ((isSlug(key) ? bySlug.get(key) : undefined) ?? byName.get(key));
    if (row) found.set(key, row);
    else if (isUuid(key)) throw new NotFoundError(`${kind} "${key}" not found in this project`);
    else missing.push(key);
  }
  return { found, missing };
}

/**
 * Resolves many benchmark or measure keys of one report at once (get-or-create by NameId: UUID, then slug,
 * then name), with a fixed number of queries whatever the count: look up, reserve slugs, insert the missing,
 * unarchive the archived. Returns the record of each key.
 */
export async function ensureNamed(
  tx: WriteRepositories,
  kind: 'benchmark' | 'measure',
  projectId: number,
  keys: readonly string[],
  now: Date,
): Promise<Map<string, DimensionRecord>> {
  const { found: out, missing } = matchNamed(kind, keys, await tx.named.findMany(kind, projectId, keys));
  if (missing.length > 0) await insertMissing(tx, kind, projectId, missing, out, now);
  const unarchived = new Map<number, DimensionRecord>();
  for (const record of new Set(out.values())) {
    if (record.archived) {
      await (kind === 'benchmark' ? tx.benchmarks : tx.measures).update(
        { id: record.id },
        { archived: false, modified: now },
      );
      unarchived.set(record.id, { ...record, archived: false, modified: now });
    }
  }
  // the records as stored now: the report's answer shows them
  for (const [key, record] of out) out.set(key, unarchived.get(record.id) ?? record);
  return out;
}

async function insertMissing(
  tx: WriteRepositories,
  kind: 'benchmark' | 'measure',
  projectId: number,
  keys: string[],
  out: Map<string, DimensionRecord>,
  now: Date,
): Promise<void> {
  const wanted = keys.map((key) => {
    if (key.length > NAME_MAX[kind]) {
      throw new InputError(
        `${kind} name "${key.slice(0, 40)}..." is longer than ${NAME_MAX[kind]} characters`,
      );
    }
    const known =
      kind === 'measure'
        ? measureFor(key)
        : { name: key, slug: slugify(key) || 'benchmark', units: undefined };
    return { key, ...known };
  });
  const existing = await tx.named.findMany(kind, projectId, [
    ...wanted.map((w) => w.slug),
    ...wanted.map((w) => w.name),
  ]);
  const taken = new Set(existing.map((r) => r.slug));
  const sameName = new Map(existing.map((r) => [r.name, r]));
  const rows = [];
  const names = new Set<string>();
  for (const w of wanted) {
    // a built-in measure first seen by slug may already exist under its display name
    const named = sameName.get(w.name);
    if (named) out.set(w.key, named);
    if (named || names.has(w.name)) continue;
    names.add(w.name);
    const slug = await uniqueSlug(w.slug, async (s) => taken.has(s));
    taken.add(slug);
    rows.push({ name: w.name, slug, ...(w.units ? { units: w.units } : {}) });
  }
  const created = await tx.named.insertMany(kind, projectId, rows, now);
  const byName = new Map(created.map((r) => [r.name, r]));
  for (const w of wanted) if (!out.has(w.key)) out.set(w.key, byName.get(w.name) as DimensionRecord);
}
