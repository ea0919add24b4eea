// @ts-check
// A third-party Benchtrack storage engine, written only against `benchtrack/plugin-kit`: every table lives in this
// process's memory, for preview servers and demos that need no database file. Chosen by
// `database.url: "memory://<name>"` once listed in `plugins`. An example, not for production: see README.md.
import { defineStorage, InputError, scopedRepositories, StorageError } from 'benchtrack/plugin-kit';
import { repositories } from './repositories.js';
import { emptyState, View } from './tables.js';

/**
 * One in-memory database: its committed state, and the tail of its queue of write transactions.
 * @typedef {{ state: import('./tables.js').State, writes: Promise<unknown> }} Database
 */

/** The one migration: a new database has every table at once. */
const MIGRATIONS = [{ version: 1, name: 'tables' }];

/**
 * Databases by name, for the life of the process: a storage closed and opened again on the same URL finds its
 * data (the contract asks that of every engine), and nothing survives the process.
 * @type {Map<string, Database>}
 */
const databases = new Map();

const URL_RULE = /^memory:\/\/([A-Za-z0-9._-]+)\/?$/;

export default defineStorage({
  id: 'memory',
  description:
    "Every table in this process's memory (database.url: memory://<name>); gone when the process exits",
  capabilities: { singleWriter: true, columnarReads: true, exclusive: true },
  schemes: ['memory'],
  /** @param {{ url: string }} options */
  async open(options) {
    const name = URL_RULE.exec(options.url)?.[1];
    if (name === undefined)
      throw new InputError(
        `database.url must be memory://<name> (letters, digits, '.', '_' or '-'), got ${options.url}`,
      );
    let database = databases.get(name);
    const created = database === undefined;
    if (database === undefined)
      databases.set(name, (database = { state: emptyState(), writes: Promise.resolve() }));
    return openStorage(database, created ? MIGRATIONS : [], this.capabilities);
  },
});

/**
 * @param {Database} database
 * @param {readonly { version: number, name: string }[]} appliedMigrations
 * @param {import('benchtrack/plugin-kit').StorageCapabilities} capabilities
 * @returns {import('benchtrack/plugin-kit').Storage}
 */
function openStorage(database, appliedMigrations, capabilities) {
  /** @type {string | undefined} when it was closed */
  let closed;
  /** @type {Set<Promise<unknown>>} */
  const running = new Set();
  /** @template T @param {Promise<T>} work */
  const track = (work) => {
    running.add(work);
    const done = () => running.delete(work);
    work.then(done, done);
    return work;
  };
  const refuse = () =>
    Promise.reject(new StorageError('this storage is closed: open it again to use the database'));
  /** @template T @param {View} view @param {'transaction' | 'read'} kind @param {(repos: any) => Promise<T>} fn */
  async function run(view, kind, fn) {
    const scope = scopedRepositories(repositories(view), kind);
    try {
      return await fn(scope.repos);
    } finally {
      scope.end();
    }
  }
  return {
    capabilities,
    appliedMigrations,
    schemaVersion: () => (closed ? refuse() : Promise.resolve(MIGRATIONS.length)),
    // One writer at a time, each on its own copy of the state: a callback that throws leaves the committed state
    // as it was, and one that returns replaces it whole.
    transaction(fn) {
      if (closed) return refuse();
      const write = database.writes.then(async () => {
        const view = new View(database.state, true);
        const result = await run(view, 'transaction', fn);
        database.state = view.state;
        return result;
      });
      database.writes = write.catch(() => undefined);
      return track(write);
    },
    read: (fn) => (closed ? refuse() : track(run(new View(database.state, false), 'read', fn))),
    health: () => (closed ? { status: 'closed', since: closed, reopened: 0 } : { status: 'ok', reopened: 0 }),
    async close() {
      closed ??= new Date().toISOString();
      await Promise.allSettled([...running]);
    },
  };
}
