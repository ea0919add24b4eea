import { scopedRepositories, type AppliedMigration, type Logger } from '../../../kit/index.js';

/** Runs `fn` on repositories that refuse every call once it has returned. */
export async function within<R extends object, T>(
  repos: R,
  kind: 'transaction' | 'read',
  fn: (repos: R) => Promise<T>,
): Promise<T> {
  const scope = scopedRepositories(repos, kind);
  try {
    return await fn(scope.repos);
  } finally {
    scope.end();
  }
}

/** `work` on a database being opened: when it fails, the database is closed and the error rethrown. */
export async function orClose<T>(work: () => Promise<T>, close: () => Promise<void>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await close();
    throw error;
  }
}

/** Logs each migration the opening applied. */
export function logMigrations(log: Logger, applied: readonly AppliedMigration[], fields: object = {}): void {
  for (const migration of applied)
    log.info(
      { migration: migration.version, migration_name: migration.name, ...fields },
      'migration applied',
    );
}
