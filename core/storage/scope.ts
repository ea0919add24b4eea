import { StorageError } from '../errors.js';

/**
 * Repositories that refuse every call once their transaction or read has ended (every storage engine wraps the
 * repositories it hands a callback in this). Without this, a reference kept
 * past the callback (a call not awaited, a closure stored away) would run on a connection that by then serves
 * another caller: a write outside any transaction, or inside someone else's.
 */
export function scopedRepositories<T extends object>(
  repositories: T,
  kind: 'transaction' | 'read',
): { repos: T; end(): void } {
  let ended = false;
  const refuse = () =>
    Promise.reject(
      new StorageError(
        `this ${kind} has ended: use its repositories only inside the callback, and await every call before it returns`,
      ),
    );
  const guard = (repository: object) =>
    Object.fromEntries(
      Object.entries(repository).map(([name, member]) => [
        name,
        typeof member === 'function'
          ? (...args: unknown[]) => (ended ? refuse() : (member as (...a: unknown[]) => unknown)(...args))
          : member,
      ]),
    );
  // guarded on first use: a transaction touches a few of the twenty-odd repositories
  const guarded = new Map<string | symbol, object>();
  const repos = new Proxy(repositories, {
    get(target, name) {
      const member: unknown = Reflect.get(target, name);
      if (typeof member !== 'object' || member === null) return member;
      let repository = guarded.get(name);
      if (!repository) guarded.set(name, (repository = guard(member)));
      return repository;
    },
  });
  return { repos, end: () => (ended = true) };
}
