import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ReplicaStore } from '../store.js';

/** `scheme: file`: a directory (a mounted volume, another disk). Puts write a temporary file, then rename. */
export function fileStore(path: string): ReplicaStore {
  const at = (key: string) => join(path, ...key.split('/'));
  return {
    location: `file://${path}`,
    async put(key, file) {
      const target = at(key);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${randomUUID()}.tmp`;
      try {
        await copyFile(file, temporary);
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async get(key, file) {
      await copyFile(at(key), file);
    },
    async list(prefix) {
      const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        },
      );
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
        .map((entry) => relative(path, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .filter((key) => key.startsWith(prefix));
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(at(key), { force: true })));
    },
    async close() {},
  };
}
