import type { ReadRepositories } from './storage.js';

/** Repository methods that look rows up by key: the same arguments give the same rows within one read. */
const LOOKUPS = new Set(['find', 'byIds', 'latestVersion']);

/**
 * `r` with every repository's `find`, `byIds` and `latestVersion` (of a head) answered once per set of arguments,
 * for one read that renders many rows sharing what they refer to: a page of reports shares its project's
 * organization, branches, heads and their latest versions, testbeds, users, benchmarks, measures, thresholds and
 * models, which were read again for every report (a page of 255 expanded reports ran thousands of statements).
 * The rows are shared between the callers, who only read them. Use it for the length of one read, never across
 * transactions.
 */
export function withLookupsOnce(r: ReadRepositories): ReadRepositories {
  const answers = new Map<string, Promise<unknown>>();
  const repositories = new Map<PropertyKey, unknown>();
  return new Proxy(r, {
    get(target, name, receiver) {
      const repository: unknown = Reflect.get(target, name, receiver);
      if (repository === null || typeof repository !== 'object') return repository;
      let wrapped = repositories.get(name);
      if (!wrapped) {
        wrapped = new Proxy(repository, {
          get(inner, method, innerReceiver) {
            const value: unknown = Reflect.get(inner, method, innerReceiver);
            if (typeof value !== 'function') return value;
            if (!LOOKUPS.has(String(method))) return value.bind(inner);
            return (...args: unknown[]) => {
              const key = `${String(name)}.${String(method)}${JSON.stringify(args, bigintText)}`;
              let answer = answers.get(key);
              if (!answer)
                answers.set(
                  key,
                  (answer = (value as (...a: unknown[]) => Promise<unknown>).apply(inner, args)),
                );
              return answer;
            };
          },
        });
        repositories.set(name, wrapped);
      }
      return wrapped;
    },
  });
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
