import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { STORE_STALL_MS, type ReplicaStore } from '../store.js';

export interface S3StoreOptions {
  readonly bucket: string;
  readonly endpoint?: string | undefined;
  readonly region?: string | undefined;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** How long a request may go without an answer or a byte moving before it fails. */
  readonly stallMs?: number;
}

/** `scheme: s3`: a bucket of AWS S3 or of an S3-compatible store (`endpoint`, path-style addressing). */
export function s3Store(options: S3StoreOptions): ReplicaStore {
  const stallMs = options.stallMs ?? STORE_STALL_MS;
  const client = new S3Client({
    region: options.region ?? 'us-east-1',
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // the store's own retries would hide an outage from the replicator, which retries with backoff itself
    maxAttempts: 1,
    requestHandler: { connectionTimeout: stallMs, socketTimeout: stallMs },
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
  const Bucket = options.bucket;
  return {
    location: `s3://${Bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`,
    async put(key, file) {
      await new Upload({ client, params: { Bucket, Key: key, Body: createReadStream(file) } }).done();
    },
    async get(key, file) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      await pipeline(object.Body as Readable, createWriteStream(file));
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async remove(keys) {
      for (let at = 0; at < keys.length; at += 1000) {
        const Objects = keys.slice(at, at + 1000).map((Key) => ({ Key }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
    async close() {
      client.destroy();
    },
  };
}
