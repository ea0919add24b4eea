import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import type { ReplicaConfig } from '../../config/schema.js';
import type { ReplicaStore } from '../store.js';

type AbsConfig = Extract<ReplicaConfig, { scheme: 'abs' }>;

/**
 * `scheme: abs`: a container (`bucket`) of Azure Blob Storage, with the account's shared key. `endpoint` (an
 * extension) is the Blob service URL of an emulator such as Azurite (`http://127.0.0.1:10000/<account>`).
 */
export function absStore(config: AbsConfig): ReplicaStore {
  const url = config.endpoint ?? `https://${config.account_name}.blob.core.windows.net`;
  const service = new BlobServiceClient(
    url,
    new StorageSharedKeyCredential(config.account_name, config.account_key),
    // the replicator retries with backoff; the client's own retries would hide an outage for minutes
    { retryOptions: { maxTries: 1 } },
  );
  const container = service.getContainerClient(config.bucket);
  return {
    location: `abs://${config.bucket} at ${url}`,
    async put(key, file) {
      await container.getBlockBlobClient(key).uploadFile(file);
    },
    async get(key, file) {
      await container.getBlobClient(key).downloadToFile(file);
    },
    async list(prefix) {
      const keys: string[] = [];
      for await (const blob of container.listBlobsFlat({ prefix })) keys.push(blob.name);
      return keys;
    },
    async remove(keys) {
      for (const key of keys) await container.deleteBlob(key, { deleteSnapshots: 'include' });
    },
    async close() {},
  };
}
