import { pino } from 'pino';
import { afterEach } from 'vitest';
import type { Logger, Storage } from '../../../core/index.js';

/** A logger that writes nothing, for the `context` of a storage plugin's `open` in tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent', customLevels: { critical: 60 } });
}

export interface StorageHarness {
  /** Opens the storage on a fresh, empty database. */
  open(): Promise<Storage>;
  /**
   * Optional, for speed: opens the storage on a fresh database that already holds the engine's migrated schema and
   * nothing else (for example a copy of a template database). The suite uses it, when given, in every test except
   * those of migrations and the lifecycle, which always start from `open`.
   */
  openMigrated?(): Promise<Storage>;
  /** Opens the same database again (after the previous storage was closed). */
  reopen(): Promise<Storage>;
  cleanup(): Promise<void>;
}

/** Opens storages for one test at a time and closes and cleans them up after each. */
export interface Opener {
  /** A storage on a fresh database, or (`again`) on the database of the previous call, closed before. */
  (again?: boolean): Promise<Storage>;
}

/**
 * Registers the cleanup of every storage a test opened; call inside a `describe`. With `migrated`, new databases
 * come from the harness's `openMigrated` where it has one.
 */
export function useStorages(createHarness: () => StorageHarness, { migrated = false } = {}): Opener {
  const harnesses: StorageHarness[] = [];
  const opened: Storage[] = [];
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
    for (const harness of harnesses.splice(0)) await harness.cleanup();
  });
  return async (again = false) => {
    const last = harnesses.at(-1);
    let storage: Storage;
    if (again && last) storage = await last.reopen();
    else {
      const harness = createHarness();
      harnesses.push(harness);
      storage = await (migrated && harness.openMigrated ? harness.openMigrated() : harness.open());
    }
    opened.push(storage);
    return storage;
  };
}
