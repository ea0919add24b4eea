import type { ReplicaConfig } from '../config/schema.js';
import { prefixOf, STORE_STALL_MS, type ReplicaStore } from './store.js';

/**
 * The store of a replica and the key prefix its `path` gives (a `file` replica's path is its directory);
 * `unpinned` hears the host key fingerprint of an sftp server whose `host_key` is not configured; a call fails
 * after `stallMs` without an answer or progress. Each
 * scheme's client is loaded when a replica uses it: the cloud SDKs take seconds to load on a busy machine, and a
 * server without replicas should not pay for them.
 */
export async function openStore(
  config: ReplicaConfig,
  unpinned?: (fingerprint: string) => void,
  stallMs = STORE_STALL_MS,
): Promise<{ store: ReplicaStore; prefix: string }> {
  switch (config.scheme) {
    case 'file': {
      const { fileStore } = await import('./stores/file.js');
      return { store: fileStore(config.path), prefix: '' };
    }
    case 's3': {
      const { s3Store } = await import('./stores/s3.js');
      return {
        store: s3Store({
          bucket: config.bucket,
          endpoint: config.endpoint,
          region: config.region,
          accessKeyId: config.access_key_id,
          secretAccessKey: config.secret_access_key,
          stallMs,
        }),
        prefix: prefixOf(config.path),
      };
    }
    case 'sftp': {
      const { sftpStore } = await import('./stores/sftp.js');
      // an sftp key is a path on the server: an absolute `path` stays absolute instead of under the login directory
      const prefix = prefixOf(config.path);
      return {
        store: sftpStore(config, unpinned, stallMs),
        prefix: config.path?.startsWith('/') ? `/${prefix}` : prefix,
      };
    }
    case 'abs': {
      const { absStore } = await import('./stores/abs.js');
      return { store: absStore(config, stallMs), prefix: prefixOf(config.path) };
    }
    case 'gcs': {
      const { gcsStore } = await import('./stores/gcs.js');
      return { store: gcsStore(config, stallMs), prefix: prefixOf(config.path) };
    }
  }
}
