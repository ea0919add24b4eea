import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { silentLogger } from '../../kit/testing/storage/harness.js';
import { duckdbStorage } from '../../plugins/storage/duckdb/index.js';

let template: Promise<string> | undefined;

const PREFIX = 'benchtrack-duckdb-template-';
/** A template directory's name: the prefix, the pid of the process that made it, mkdtemp's suffix. */
const TEMPLATE_DIR = new RegExp(`^${PREFIX}(\\d+)-`);

/**
 * A DuckDB file the storage plugin migrated, made once per test process, in a directory named after the process.
 * It is removed when the process exits, or, since vitest ends its workers without their `exit` event, by the next
 * process that makes one once its own process is gone (1.3 MB each, about ten a run).
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    removeOrphans();
    const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
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

/** Removes the templates of test processes that are gone. */
function removeOrphans(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(TEMPLATE_DIR.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has the number
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
