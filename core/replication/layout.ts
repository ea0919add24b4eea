import { randomBytes } from 'node:crypto';
import type { ChangeFile, ReplicaState } from '../storage/storage.js';

/**
 * Keys of a replica under its path. A generation is a snapshot and the chain of change sets that follow it:
 *
 *     generations/<generation>/snapshot.db.gz     the database when the generation began (gzipped)
 *     generations/<generation>/snapshot.json      its manifest, written last: the generation exists once it does
 *     generations/<generation>/changes/<index>/<table>.parquet
 *     generations/<generation>/changes/<index>.json   a change set's manifest, written after its files
 *
 * Generation names sort by time (`20261124T010522123Z-a1b2`); change indexes are zero-padded from 1.
 */
export const GENERATIONS = 'generations/';

export interface SnapshotManifest {
  readonly generation: string;
  readonly created: string;
  readonly state: ReplicaState;
}

export interface ChangeManifest {
  readonly generation: string;
  readonly index: number;
  readonly created: string;
  readonly files: readonly ChangeFile[];
  readonly state: ReplicaState;
}

export function newGeneration(at: Date): string {
  const stamp = at.toISOString().replaceAll(/[-:.]/g, '');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export const snapshotKey = (prefix: string, generation: string) =>
  `${prefix}${GENERATIONS}${generation}/snapshot.db.gz`;
export const snapshotManifestKey = (prefix: string, generation: string) =>
  `${prefix}${GENERATIONS}${generation}/snapshot.json`;
export const changeFileKey = (prefix: string, generation: string, index: number, file: string) =>
  `${prefix}${GENERATIONS}${generation}/changes/${pad(index)}/${file}`;
export const changeManifestKey = (prefix: string, generation: string, index: number) =>
  `${prefix}${GENERATIONS}${generation}/changes/${pad(index)}.json`;

const pad = (index: number) => String(index).padStart(10, '0');

/** What a listing of the replica holds: generations with their snapshot manifest, and change indexes of each. */
export function readListing(prefix: string, keys: readonly string[]): Map<string, number[]> {
  const generations = new Map<string, number[]>();
  const changes: [string, number][] = [];
  for (const key of keys) {
    if (!key.startsWith(prefix + GENERATIONS)) continue;
    const rest = key.slice(prefix.length + GENERATIONS.length).split('/');
    if (rest.length === 2 && rest[1] === 'snapshot.json') generations.set(rest[0] as string, []);
    const change =
      rest.length === 3 && rest[1] === 'changes' ? /^(\d{10})\.json$/.exec(rest[2] as string) : null;
    if (change) changes.push([rest[0] as string, Number(change[1])]);
  }
  for (const [generation, index] of changes) generations.get(generation)?.push(index);
  for (const indexes of generations.values()) indexes.sort((a, b) => a - b);
  return generations;
}

/** Time a generation began, from its name. */
export function generationTime(generation: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(generation);
  if (!m) return 0;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s, ms);
}

/** Whether two states hold the same data: every table alike, every sequence at least as far. */
export function sameData(restored: ReplicaState, expected: ReplicaState): string | undefined {
  const names = new Set([...Object.keys(restored.tables), ...Object.keys(expected.tables)]);
  for (const name of names) {
    const a = restored.tables[name];
    const b = expected.tables[name];
    if (!a || !b || a.rows !== b.rows || a.hash !== b.hash)
      return `table ${name} has ${a?.rows ?? 'no'} rows (hash ${a?.hash ?? '-'}), expected ${b?.rows ?? 'no'} rows (hash ${b?.hash ?? '-'})`;
  }
  for (const [name, value] of Object.entries(expected.sequences))
    if (BigInt(restored.sequences[name] ?? '0') < BigInt(value))
      return `sequence ${name} is at ${restored.sequences[name] ?? 'nothing'}, expected at least ${value}`;
  return undefined;
}
