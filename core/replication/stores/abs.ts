import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { ReplicaConfig } from '../../config/schema.js';
import { STORE_STALL_MS, within, type ReplicaStore } from '../store.js';

type AbsConfig = Extract<ReplicaConfig, { scheme: 'abs' }>;

/**
 * `scheme: abs`: a container (`bucket`) of Azure Blob Storage, with the account's shared key. `endpoint` (an
 * extension) is the Blob service URL of an emulator such as Azurite (`http://127.0.0.1:10000/<account>`). Every
 * call is aborted after `stallMs` without an answer or progress (the client has no idle timeout of its own).
 */
export function absStore(config: AbsConfig, stallMs = STORE_STALL_MS): ReplicaStore {
  const url = config.endpoint ?? `https://${config.account_name}.blob.core.windows.net`;
  const service = new BlobServiceClient(
    url,
    new StorageSharedKeyCredential(config.account_name, config.account_key),
    // the replicator retries with backoff; the client's own retries would hide an outage for minutes
    { retryOptions: { maxTries: 1 } },
  );
  const container = service.getContainerClient(config.bucket);
  const location = `abs://${config.bucket} at ${url}`;
  return {
    location,
    async put(key, file) {
      await within(stallMs, `${location}: upload ${key}`, (abortSignal, onProgress) =>
        container.getBlockBlobClient(key).uploadFile(file, { abortSignal, onProgress }),
      );
    },
    async get(key, file) {
      await within(stallMs, `${location}: download ${key}`, (abortSignal, onProgress) =>
        container.getBlobClient(key).downloadToFile(file, 0, undefined, { abortSignal, onProgress }),
      );
    },
    list: (prefix) =>
      within(stallMs, `${location}: list ${prefix}`, async (abortSignal, progress) => {
        const keys: string[] = [];
        for await (const blob of container.listBlobsFlat({ prefix, abortSignal })) {
          keys.push(blob.name);
          progress();
        }
        return keys;
      }),
    async remove(keys) {
      for (const key of keys)
        await within(stallMs, `${location}: delete ${key}`, (abortSignal) =>
          container.deleteBlob(key, { deleteSnapshots: 'include', abortSignal }),
        );
    },
    async close() {},
  };
}
