import type { ReplicaConfig } from '../config/schema.js';
import { absStore } from './stores/abs.js';
import { fileStore } from './stores/file.js';
import { gcsStore } from './stores/gcs.js';
import { s3Store } from './stores/s3.js';
import { sftpStore } from './stores/sftp.js';
import { prefixOf, type ReplicaStore } from './store.js';

/** The store of a replica and the key prefix its `path` gives (a `file` replica's path is its directory). */
export function openStore(config: ReplicaConfig): { store: ReplicaStore; prefix: string } {
  switch (config.scheme) {
    case 'file':
      return { store: fileStore(config.path), prefix: '' };
    case 's3':
      return {
        store: s3Store({
          bucket: config.bucket,
          endpoint: config.endpoint,
          region: config.region,
          accessKeyId: config.access_key_id,
          secretAccessKey: config.secret_access_key,
        }),
        prefix: prefixOf(config.path),
      };
    case 'sftp':
      return { store: sftpStore(config), prefix: prefixOf(config.path) };
    case 'abs':
      return { store: absStore(config), prefix: prefixOf(config.path) };
    case 'gcs':
      return { store: gcsStore(config), prefix: prefixOf(config.path) };
  }
}
