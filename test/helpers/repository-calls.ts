import { performance } from 'node:perf_hooks';
import type { WriteRepositories } from '../../core/index.js';

/** What {@link watchedRepositories} reports of each repository call: `repository.method`, then its duration. */
export interface RepositoryWatch {
  start?(call: string): void;
  end?(call: string, ms: number): void;
}

/**
 * The repositories of a transaction with each method call reported to `watch` as it starts and as it settles: for
 * tests and benches that count or time what the code under test asks of the storage, without changing it.
 */
export function watchedRepositories(tx: WriteRepositories, watch: RepositoryWatch): WriteRepositories {
  return new Proxy(tx, {
    get(target, name: string) {
      const repository = Reflect.get(target, name) as object;
      if (typeof repository !== 'object' || repository === null) return repository;
      return new Proxy(repository, {
        get(inner, method: string) {
          const value = Reflect.get(inner, method) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            const call = `${name}.${method}`;
            watch.start?.(call);
            const started = performance.now();
            try {
              return (await value.apply(inner, args)) as unknown;
            } finally {
              watch.end?.(call, performance.now() - started);
            }
          };
        },
      });
    },
  });
}
