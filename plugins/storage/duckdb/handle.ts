/** Opening and closing one DuckDB instance with its connections, and the checks before opening a file. */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { StorageError } from '../../../kit/index.js';

export interface DatabaseOptions {
  readonly file: string;
  /** Connections that serve reads concurrently with the single writer. */
  readonly readers: number;
  /** DuckDB's checkpoint_threshold: the WAL size at which a commit checkpoints (DuckDB's default: 16MB). */
  readonly checkpointThreshold?: string;
  /** DuckDB's memory_limit ('1GiB'; DuckDB's default: 80% of the machine's memory). */
  readonly memoryLimit?: string;
  /** Whether closing folds the WAL into the file (DuckDB's default); false only for files deleted after. */
  readonly checkpointOnClose?: boolean;
}

/** An open instance and its connections; replaced as a whole when the database is reopened. */
export interface Handle {
  readonly instance: DuckDBInstance;
  readonly writer: DuckDBConnection;
  readonly readers: readonly DuckDBConnection[];
  /** Connections handed out by `connect` (compaction): closed with the instance, so none keeps the file open. */
  readonly others: Set<DuckDBConnection>;
}

/** Opens the file with its writer and reader connections; nothing stays open when that fails. */
export async function connectAll(path: string, options: DatabaseOptions): Promise<Handle> {
  const instance = await DuckDBInstance.create(path, {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    ...(options.memoryLimit ? { memory_limit: options.memoryLimit } : {}),
    ...(options.checkpointThreshold ? { checkpoint_threshold: options.checkpointThreshold } : {}),
  });
  try {
    const writer = await instance.connect();
    const readers = await Promise.all(Array.from({ length: options.readers }, () => instance.connect()));
    return { instance, writer, readers, others: new Set() };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

/** Closes connections and instance; an instance DuckDB invalidated may refuse, which changes nothing here. */
export function closeHandle({ instance, writer, readers, others }: Handle): void {
  for (const closable of [writer, ...readers, ...others, instance]) {
    try {
      closable.closeSync();
    } catch {
      // already unusable: the file is released with the instance either way
    }
  }
}

export function prepareLocation(path: string): void {
  const directory = dirname(path);
  const fix =
    'set database.file to a path this user can write, or create the directory and grant write access';
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    throw new StorageError(
      `cannot create the database directory ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${fix}`,
    );
  }
  try {
    accessSync(directory, constants.W_OK);
  } catch {
    throw new StorageError(`the database directory ${directory} is not writable; ${fix}`);
  }
}

export function openError(path: string, error: unknown): StorageError {
  const message = (error as Error).message ?? String(error);
  if (/lock/i.test(message)) {
    return new StorageError(
      `database ${path} is in use by another process (${message}); stop that process or point database.file elsewhere`,
      {},
      { cause: error },
    );
  }
  return new StorageError(`cannot open database ${path}: ${message}`, {}, { cause: error });
}
