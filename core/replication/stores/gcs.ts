import { Storage } from '@google-cloud/storage';
import type { ReplicaConfig } from '../../config/schema.js';
import { ConfigError } from '../../errors.js';
import type { ReplicaStore } from '../store.js';

type GcsConfig = Extract<ReplicaConfig, { scheme: 'gcs' }>;

/** The environment variable naming the service-account credentials file, as the spec says. */
export const GCS_CREDENTIALS_ENV = 'CLOUD_APPLICATION_CREDENTIALS';

/**
 * `scheme: gcs`: a Google Cloud Storage bucket through its JSON API, authenticated with the service account
 * whose credentials file `CLOUD_APPLICATION_CREDENTIALS` names. `endpoint` (an extension) points the client at
 * another host; credentials are used there too.
 */
export function gcsStore(config: GcsConfig): ReplicaStore {
  const keyFilename = process.env[GCS_CREDENTIALS_ENV];
  if (!keyFilename)
    throw new ConfigError('configuration', [
      {
        path: 'plus.disaster_recovery.replicas',
        message: `a gcs replica needs ${GCS_CREDENTIALS_ENV}: set it to the path of a service-account credentials file`,
      },
    ]);
  const client = new Storage({
    keyFilename,
    retryOptions: { autoRetry: false },
    ...(config.endpoint ? { apiEndpoint: config.endpoint, useAuthWithCustomEndpoint: true } : {}),
  });
  const bucket = client.bucket(config.bucket);
  return {
    location: `gs://${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`,
    async put(key, file) {
      await bucket.upload(file, { destination: key, resumable: false });
    },
    async get(key, file) {
      await bucket.file(key).download({ destination: file });
    },
    async list(prefix) {
      const [files] = await bucket.getFiles({ prefix, autoPaginate: true });
      return files.map((f) => f.name);
    },
    async remove(keys) {
      for (const key of keys) await bucket.file(key).delete({ ignoreNotFound: true });
    },
    async close() {},
  };
}
