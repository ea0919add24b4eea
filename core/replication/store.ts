/**
 * Where a replica lives: a flat namespace of keys (`a/b/c`) holding files. `put` is atomic: a reader sees the
 * whole object or none, so a change is committed by writing its manifest last.
 */
export interface ReplicaStore {
  /** Where the replica is, for logs and the status endpoint: never a credential. */
  readonly location: string;
  put(key: string, file: string): Promise<void>;
  get(key: string, file: string): Promise<void>;
  /** Every key that starts with `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  remove(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** `path` with a trailing `/` unless empty, so keys join under it. */
export function prefixOf(path: string | undefined): string {
  const trimmed = (path ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}
