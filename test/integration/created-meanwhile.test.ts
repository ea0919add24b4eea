import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDimension, ensureDimension } from '../../core/dimensions/dimensions.js';
import { INGEST } from '../../core/projects/ingest-order.js';
import { resolveBranch } from '../../core/reports/ingest.js';
import type { DimensionKind, WriteRepositories } from '../../core/index.js';
import { createProject, signUp } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';

/**
 * On PostgreSQL, ingest runs at READ COMMITTED: each statement sees what committed before it. A report that looks
 * a branch or testbed up, finds nothing, and goes to create it can meet the same name committed by another report
 * in between (seen in CI: ingest-order's racing reports answered 409 "a branch named lane-1 already exists").
 * Here the other report's creation is made to commit right after the lookup's last statement, through a second
 * transaction, so the race happens every time; the transaction is ingest's (READ COMMITTED under locks). DuckDB
 * has one writer: no second transaction can commit meanwhile.
 */
/** A property of `target`, methods bound to it. */
function bound(target: object, key: string | symbol): unknown {
  const value = Reflect.get(target, key) as unknown;
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

describe.skipIf(!onPostgres)('a dimension created by another report between lookup and creation', () => {
  let t: TestApp;
  let projectId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
    await createProject(t, ada, 'ada-lovelace', { name: 'Raced' });
    projectId = (await t.storage.read((r) => r.projects.find({ slug: 'raced' })))!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * `tx` whose table of `kind` commits the other report's creation of `name` right after this transaction's
   * first lookup by that name (the last statement of a lookup by NameId) has answered.
   */
  function racing(tx: WriteRepositories, table: 'branches' | 'testbeds', kind: DimensionKind, name: string) {
    const created: { id?: number } = {};
    const reader = tx[table] as unknown as {
      find(where: Record<string, unknown>): Promise<unknown>;
    };
    const find = async (where: Record<string, unknown>) => {
      const found = await reader.find(where);
      if (created.id === undefined && where.name === name) {
        const other = await t.storage.transaction((other) =>
          createDimension(other, projectId, kind, { name }, new Date()),
        );
        created.id = other.id;
      }
      return found;
    };
    // the repository with its own methods (a class's, bound to it: they may use private fields) and this find
    const watched = new Proxy(reader, { get: (target, key) => (key === 'find' ? find : bound(target, key)) });
    return {
      tx: new Proxy(tx, { get: (target, key) => (key === table ? watched : bound(target, key)) }),
      created,
    };
  }

  it('uses the branch the other report created, instead of answering 409', async () => {
    const branch = await t.storage.transaction(async (tx) => {
      const { tx: raced, created } = racing(tx, 'branches', 'branch', 'lane-1');
      const resolved = await resolveBranch(raced, projectId, 'lane-1', undefined, new Date());
      expect(created.id).toBeDefined();
      expect(resolved.id).toBe(created.id);
      return resolved;
    }, INGEST);
    expect(branch.name).toBe('lane-1');
    const all = await t.storage.read((r) => r.branches.all({ project_id: projectId }));
    expect(all.filter((b) => b.name === 'lane-1')).toHaveLength(1);
  });

  it('uses the testbed the other report created, instead of answering 409', async () => {
    await t.storage.transaction(async (tx) => {
      const { tx: raced, created } = racing(tx, 'testbeds', 'testbed', 'ci');
      const resolved = await ensureDimension(raced, projectId, 'testbed', 'ci', new Date());
      expect(created.id).toBeDefined();
      expect(resolved.id).toBe(created.id);
    }, INGEST);
    const all = await t.storage.read((r) => r.testbeds.all({ project_id: projectId }));
    expect(all.filter((b) => b.name === 'ci')).toHaveLength(1);
  });
});
