import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { silentLogger } from '../../kit/testing/storage/harness.js';
import { duckdbStorage } from '../../plugins/storage/duckdb/index.js';

let template: Promise<string> | undefined;

/** A DuckDB file the storage plugin migrated, made once per test process and removed when it exits. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchtrack-duckdb-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'template.db');
    const storage = await duckdbStorage.open({ file }, { logger: silentLogger() });
    await storage.close();
    return file;
  })();
  return template;
}

/**
 * Puts a copy of a freshly migrated database at `file` (its directory created), for tests that need a new database
 * but do not test migrations: copying takes about 50 ms where four migrations took about 280 ms (measured on the
 * loaded 2-core machine). What the copy holds is exactly what opening a new file would have written.
 */
export async function copyMigratedDuckdb(file: string): Promise<void> {
  const source = await migratedTemplate();
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(source, file);
  // closing checkpoints, so a template has no WAL; were one left, it belongs to the copy too
  if (existsSync(`${source}.wal`)) copyFileSync(`${source}.wal`, `${file}.wal`);
}
