/** Opening and closing one DuckDB instance with its connections, and the checks before opening a file. */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { z } from 'zod';
import { StorageError } from '../../../kit/index.js';

/** The engine's memory ceiling when database.memory_limit is not set. */
export const DEFAULT_MEMORY_LIMIT = '1GiB';

export const optionsSchema = z.strictObject({
  file: z.string().min(1, { error: 'database file must not be empty' }),
  /** Connections that serve reads concurrently with the single writer. */
  readers: z.number().int().min(1).max(64).default(4),
  /** WAL size at which a commit checkpoints, in DuckDB's notation ('16MB', its default); small for tests. */
  checkpoint_threshold: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)$/i, { error: 'checkpoint_threshold must look like 16MB' })
    .optional(),
  /** DuckDB's memory_limit: the most its buffer manager holds; larger sorts and joins spill to `<file>.tmp`. */
  memory_limit: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(MB|GB|TB|MiB|GiB|TiB)$/, { error: 'memory_limit must look like 1GiB' })
    .default(DEFAULT_MEMORY_LIMIT),
  /** Whether closing checkpoints (DuckDB's default); false for throwaway files deleted after closing (tests). */
  checkpoint_on_close: z.boolean().default(true),
});

export type DuckDbOptions = z.input<typeof optionsSchema>;
export type DatabaseOptions = z.output<typeof optionsSchema>;

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
    memory_limit: options.memory_limit,
    ...(options.checkpoint_threshold ? { checkpoint_threshold: options.checkpoint_threshold } : {}),
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
