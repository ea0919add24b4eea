import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { DataStoreConfig } from '../config/schema.js';
import { InternalError, UnavailableError } from '../errors.js';
import { STORE_STALL_MS } from '../replication/store.js';
import { parseAccessPoint, type AccessPoint } from './access-point.js';

/** Parts of a multipart upload: files larger than one part go up in parts, four at a time. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

/**
 * The S3 data store of `database.data_store`: its client and where its access point points. The AWS SDK is
 * loaded on first use, not with core: it doubles the start-up time of every process (each CLI command, each
 * worker thread) that never talks to a data store.
 */
export class DataStore {
  readonly point: AccessPoint;
  readonly #settings: S3ClientConfig;
  readonly #bucket: string;
  #client: Promise<S3Client> | undefined;

  /** `stallMs`: how long a request may go without an answer or a byte moving before it fails. */
  constructor(config: DataStoreConfig, stallMs = STORE_STALL_MS) {
    const point = parseAccessPoint(config.access_point);
    if (!point) throw new InternalError('database.data_store.access_point passed validation but is no ARN');
    this.point = point;
    this.#bucket = config.endpoint ? point.name : point.arn;
    this.#settings = {
      region: point.region,
      credentials: { accessKeyId: config.access_key_id, secretAccessKey: config.secret_access_key },
      requestHandler: { connectionTimeout: stallMs, socketTimeout: stallMs },
      ...(config.endpoint
        ? {
            endpoint: config.endpoint,
            forcePathStyle: true,
            // S3-compatible stores do not all know the newer checksum headers; integrity is checked below
            requestChecksumCalculation: 'WHEN_REQUIRED' as const,
            responseChecksumValidation: 'WHEN_REQUIRED' as const,
          }
        : {}),
    };
  }

  #connect(): Promise<S3Client> {
    this.#client ??= import('@aws-sdk/client-s3').then(({ S3Client }) => new S3Client(this.#settings));
    return this.#client;
  }

  /**
   * Uploads `file` under the access point's path (multipart past one part), then reads the object back and
   * compares its SHA-256 with `sha256`. Returns the key.
   */
  async push(file: string, name: string, sha256: string): Promise<string> {
    const key = `${this.point.prefix}${name}`;
    try {
      const { Upload } = await import('@aws-sdk/lib-storage');
      await new Upload({
        client: await this.#connect(),
        params: { Bucket: this.#bucket, Key: key, Body: createReadStream(file), Metadata: { sha256 } },
        partSize: PART_SIZE,
        queueSize: PARTS_AT_ONCE,
      }).done();
    } catch (error) {
      throw storeError('upload', key, error);
    }
    const stored = await this.#hash(key);
    if (stored !== sha256)
      throw new UnavailableError(
        `the backup uploaded to ${key} reads back with SHA-256 ${stored}, not ${sha256}: the upload is corrupt; run the backup again`,
      );
    return key;
  }

  /** Downloads `key` to `file`. */
  async fetch(key: string, file: string): Promise<void> {
    await pipeline(await this.#body(key), createWriteStream(file));
  }

  close(): void {
    void this.#client?.then(
      (client) => client.destroy(),
      () => undefined,
    );
  }

  async #hash(key: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of await this.#body(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  async #body(key: string): Promise<Readable> {
    try {
      const [client, { GetObjectCommand }] = await Promise.all([
        this.#connect(),
        import('@aws-sdk/client-s3'),
      ]);
      const object = await client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      return object.Body as Readable;
    } catch (error) {
      throw storeError('download', key, error);
    }
  }
}

/** An error of the store, named without its credentials (the SDK's messages carry none). */
function storeError(action: string, key: string, error: unknown): UnavailableError {
  const reason = (error as Error).name ?? 'Error';
  const message = (error as Error).message ?? String(error);
  return new UnavailableError(
    `cannot ${action} ${key} at database.data_store (${reason}: ${message}); check the access point, the endpoint and the credentials`,
  );
}
