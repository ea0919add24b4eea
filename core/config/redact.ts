/** What every secret looks like in logs and in printed or returned configuration. */
export const REDACTED = '************';

/** Key paths of the secrets in a configuration document; `*` matches every element of an array. */
export const SECRET_PATHS: readonly (readonly string[])[] = [
  ['security', 'secret_key'],
  ['server', 'tls', 'key'],
  ['smtp', 'secret'],
  ['database', 'data_store', 'secret_access_key'],
  ['plus', 'codehost', 'client_secret'],
  ['plus', 'disaster_recovery', 'replicas', '*', 'password'],
  ['plus', 'disaster_recovery', 'replicas', '*', 'secret_access_key'],
  ['plus', 'disaster_recovery', 'replicas', '*', 'account_key'],
];

type Json = unknown;

function visit(
  node: Json,
  path: readonly string[],
  onLeaf: (parent: Record<string, Json>, key: string) => void,
): void {
  if (node === null || typeof node !== 'object') return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '*') {
    if (Array.isArray(node)) for (const item of node) visit(item, rest, onLeaf);
    return;
  }
  const record = node as Record<string, Json>;
  if (!(head in record)) return;
  if (rest.length === 0) onLeaf(record, head);
  else visit(record[head], rest, onLeaf);
}

/** A deep copy of a configuration (or document) with every secret replaced by {@link REDACTED}. */
export function redactConfig<T>(config: T): T {
  const copy = structuredClone(config);
  for (const path of SECRET_PATHS) {
    visit(copy, path, (parent, key) => {
      if (parent[key] !== undefined && parent[key] !== null) parent[key] = REDACTED;
    });
  }
  return copy;
}

/** The secret values of a configuration, for scrubbing them from any text (log lines). */
export function secretValues(config: unknown): string[] {
  const out: string[] = [];
  for (const path of SECRET_PATHS) {
    visit(config, path, (parent, key) => {
      const value = parent[key];
      if (typeof value === 'string' && value.length > 0) out.push(value);
    });
  }
  return out;
}
