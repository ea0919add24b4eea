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

/**
 * Key paths of connection URLs (`scheme://user:password@host/...`): only their password is a secret, so the
 * host and database stay readable in logs and in the returned configuration.
 */
export const URL_SECRET_PATHS: readonly (readonly string[])[] = [
  ['database', 'url'],
  ['database', 'replicas', '*'],
];

/** The password of a URL as written in it (percent-encoded), if it has one. */
function urlPassword(url: string): string | undefined {
  try {
    return new URL(url).password || undefined;
  } catch {
    return undefined;
  }
}

/** A URL with its password replaced by {@link REDACTED}; the URL as it is when it has none. */
export function redactUrl(url: string): string {
  const password = urlPassword(url);
  if (password === undefined) return url;
  const parsed = new URL(url);
  parsed.password = REDACTED;
  return parsed.href;
}

/**
 * A URL sent back with a {@link REDACTED} password (as `redactUrl` showed it) keeps the password of `current`,
 * the URL it replaces; any other URL is taken as sent.
 */
export function keepUrlPassword(sent: unknown, current: unknown): unknown {
  if (typeof sent !== 'string' || typeof current !== 'string') return sent;
  if (urlPassword(sent) !== REDACTED) return sent;
  const parsed = new URL(sent);
  parsed.password = urlPassword(current) ?? '';
  return parsed.href;
}

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
    if (!Array.isArray(node)) return;
    // a list of secrets (database.replicas): each element is a leaf
    if (rest.length === 0)
      node.forEach((_, index) => onLeaf(node as unknown as Record<string, Json>, String(index)));
    else for (const item of node) visit(item, rest, onLeaf);
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
  for (const path of URL_SECRET_PATHS) {
    visit(copy, path, (parent, key) => {
      if (typeof parent[key] === 'string') parent[key] = redactUrl(parent[key]);
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
  for (const path of URL_SECRET_PATHS) {
    visit(config, path, (parent, key) => {
      const password = typeof parent[key] === 'string' ? urlPassword(parent[key]) : undefined;
      // as written in the URL and decoded, which is how a driver's message would quote it
      if (password !== undefined) out.push(password, safeDecode(password));
    });
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
