import { parseArgs } from 'node:util';
import { InputError, restoreDatabase, type Config, type Storage } from '../core/index.js';

export const RESTORE_USAGE =
  'usage: benchtrack-api restore <backup file | s3://<access point name>/<key> | replica[:<n>]> [--force] [--sha256 <hex>]';

/**
 * `benchtrack-api restore`: rebuilds `database.file` of the configuration from a backup, with the server stopped.
 * Prints what it restored as one JSON line on stdout.
 */
export async function restoreCommand(
  args: readonly string[],
  config: Config,
  open: (file: string) => Promise<Storage>,
): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { force: { type: 'boolean', default: false }, sha256: { type: 'string' } },
    });
  } catch (error) {
    throw new InputError(`${(error as Error).message}\n${RESTORE_USAGE}`);
  }
  const [source, ...extra] = parsed.positionals;
  if (source === undefined || extra.length > 0) throw new InputError(RESTORE_USAGE);
  if (config.database.file === undefined)
    throw new InputError(
      "restore rebuilds the embedded database of database.file; this configuration names a database server (database.url): restore it with the server's own tools",
    );
  const result = await restoreDatabase({
    source,
    target: config.database.file,
    force: parsed.values.force,
    sha256: parsed.values.sha256,
    dataStore: config.database.data_store,
    replicas: config.plus?.disaster_recovery?.replicas,
    open,
  });
  process.stdout.write(`${JSON.stringify({ restored: source, ...result })}\n`);
}
