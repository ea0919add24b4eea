import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { copyDatabase, InputError, type Config, type CopyProgress, type Storage } from '../core/index.js';

export const MIGRATE_USAGE =
  'usage: benchtrack-api migrate --to <postgres://... URL | database file> [--from <URL | database file>]';

/** Where a database is: a URL (`postgres://...`) or the path of an embedded database file. */
export function databaseAt(location: string): Config['database'] {
  return location.includes('://') ? { url: location } : { file: location };
}

/** A progress line per table on stderr: rewritten in place on a terminal, one line per tenth otherwise. */
function progressLine(out: NodeJS.WriteStream): (at: CopyProgress) => void {
  let shown = { table: '', tenth: -1 };
  return ({ table, copied, total }) => {
    const line = `benchtrack-api migrate: ${table} ${copied}/${total} rows`;
    if (out.isTTY) {
      out.write(`\r\x1b[K${line}${copied >= total ? '\n' : ''}`);
      return;
    }
    const tenth = total === 0 ? 10 : Math.floor((copied * 10) / total);
    if (shown.table === table && shown.tenth === tenth) return;
    shown = { table, tenth };
    out.write(`${line}\n`);
  };
}

/**
 * `benchtrack-api migrate`: copies a whole database (the configured one unless `--from` says otherwise) into a new,
 * empty database of any engine, table by table in bulk with ids preserved, then prints the rows copied per table
 * as one JSON line on stdout. The server must be stopped (or read-only) while it runs.
 */
export async function migrateCommand(
  args: readonly string[],
  config: Config,
  open: (database: Config['database']) => Promise<Storage>,
  stderr: NodeJS.WriteStream = process.stderr,
): Promise<Record<string, number>> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { to: { type: 'string' }, from: { type: 'string' } },
    });
  } catch (error) {
    throw new InputError(`${(error as Error).message}\n${MIGRATE_USAGE}`);
  }
  const { to, from } = parsed.values;
  if (to === undefined || to === '') throw new InputError(`--to is required\n${MIGRATE_USAGE}`);
  const sourceDatabase = from === undefined ? config.database : databaseAt(from);
  // opening a file that is not there would create an empty database and copy nothing
  if (sourceDatabase.file !== undefined && !existsSync(sourceDatabase.file))
    throw new InputError(
      `the source database file ${sourceDatabase.file} does not exist; name an existing one with --from, or set database.file`,
    );
  const source = await open(sourceDatabase);
  try {
    const target = await open(databaseAt(to));
    try {
      const copied = Object.fromEntries(await copyDatabase(source, target, progressLine(stderr)));
      process.stdout.write(`${JSON.stringify({ migrated: copied })}\n`);
      return copied;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
