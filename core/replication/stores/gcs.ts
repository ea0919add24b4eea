import { createReadStream, createWriteStream } from 'node:fs';
import { Storage } from '@google-cloud/storage';
import type { ReplicaConfig } from '../../config/schema.js';
import { ConfigError } from '../../errors.js';
import { pipeWithin, STORE_STALL_MS, within, type ReplicaStore } from '../store.js';

type GcsConfig = Extract<ReplicaConfig, { scheme: 'gcs' }>;

/** The environment variable naming the service-account credentials file, as the spec says. */
export const GCS_CREDENTIALS_ENV = 'CLOUD_APPLICATION_CREDENTIALS';

/**
 * `scheme: gcs`: a Google Cloud Storage bucket through its JSON API, authenticated with the service account
 * whose credentials file `CLOUD_APPLICATION_CREDENTIALS` names. `endpoint` (an extension) points the client at
 * another host, which gets requests signed with the service account's key.
 */
export function gcsStore(config: GcsConfig, stallMs = STORE_STALL_MS): ReplicaStore {
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
    timeout: stallMs,
    // another host cannot take part in Google's OAuth token exchange: there the service account signs its own
    // JWT for each request (JWT access with scopes), which the host checks with the account's public key
    ...(config.endpoint ? { apiEndpoint: config.endpoint, useAuthWithCustomEndpoint: true } : {}),
  });
  if (config.endpoint) client.authClient.useJWTAccessWithScope = true;
  const bucket = client.bucket(config.bucket);
  const location = `gs://${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`;
  // transfers are piped here, so that one that stops moving is destroyed: the client's own request timeout
  // (`timeout`) covers its other calls, but not an upload
  return {
    location,
    put: (key, file) =>
      pipeWithin(
        stallMs,
        `${location}: upload ${key}`,
        createReadStream(file),
        bucket.file(key).createWriteStream({ resumable: false }),
      ),
    get: (key, file) =>
      pipeWithin(
        stallMs,
        `${location}: download ${key}`,
        bucket.file(key).createReadStream(),
        createWriteStream(file),
      ),
    list: (prefix) =>
      within(stallMs, `${location}: list ${prefix}`, async () => {
        const [files] = await bucket.getFiles({ prefix, autoPaginate: true });
        return files.map((f) => f.name);
      }),
    async remove(keys) {
      for (const key of keys)
        await within(stallMs, `${location}: delete ${key}`, () =>
          bucket.file(key).delete({ ignoreNotFound: true }),
        );
    },
    async close() {},
  };
}
