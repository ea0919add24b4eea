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
  /** Opens the same database again (after the previous storage was closed). */
  reopen(): Promise<Storage>;
  cleanup(): Promise<void>;
}

/** Opens storages for one test at a time and closes and cleans them up after each. */
export interface Opener {
  /** A storage on a fresh database, or (`again`) on the database of the previous call, closed before. */
  (again?: boolean): Promise<Storage>;
}

/** Registers the cleanup of every storage a test opened; call inside a `describe`. */
export function useStorages(createHarness: () => StorageHarness): Opener {
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
      storage = await harness.open();
    }
    opened.push(storage);
    return storage;
  };
}
