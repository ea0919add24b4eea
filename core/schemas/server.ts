import { z } from 'zod';

/** Wire format of `/v0/server/*` answers the CLI reads. */

export const serverVersionSchema = z.object({
  version: z.string().describe('Semantic version of the running API'),
});

/** Body of `POST /v0/server/backup`, as the reference has it (`rm` is an alias of `remove`). */
export const backupRequestSchema = z
  .strictObject({
    compress: z.boolean({ error: 'must be true or false' }).optional().describe('gzip the snapshot'),
    data_store: z
      .enum(['cloud_s3', 'aws_s3'], {
        error: 'must be cloud_s3, the service of database.data_store (aws_s3 is accepted as an alias)',
      })
      .optional()
      .describe('Push the backup to database.data_store: cloud_s3 (aws_s3, the reference name, is an alias)'),
    remove: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe('Delete the local copy once pushed (needs data_store)'),
    rm: z.boolean({ error: 'must be true or false' }).optional().describe('Alias of remove'),
  })
  .prefault({});

export const backupCreatedSchema = z.object({
  created: z.string().describe('When the snapshot was taken (RFC 3339)'),
  name: z.string().describe('backup-<database stem>-<YYYY-MM-DD-HH-MM-SS UTC><extension>[.gz]'),
  file: z.string().nullable().describe('Path of the local copy on the server; null once removed'),
  size: z.number().int().describe('Bytes'),
  sha256: z.string().describe('SHA-256 of the backup file, hex'),
  compressed: z.boolean(),
  pushed_to: z.string().nullable().describe('s3://<access point name>/<key> when pushed to the data store'),
  duration_ms: z.number().int(),
});
export type BackupCreated = z.infer<typeof backupCreatedSchema>;

const time = z.string().nullable();
export const replicaStatusSchema = z.object({
  scheme: z.enum(['file', 'sftp', 's3', 'abs', 'gcs']),
  location: z.string().describe('Where the replica is, without credentials'),
  generation: z.string().nullable().describe('The generation (snapshot and change sets) being written'),
  changes: z.number().int().describe('Change sets written in this generation'),
  last_sync: time.describe('Last time the replica was known to hold every commit (RFC 3339)'),
  last_snapshot: time,
  last_validation: time,
  last_error: z.string().nullable().describe('The last failure, without credentials'),
  last_error_at: time,
  consecutive_failures: z.number().int().describe('Failures since the last success; retried with backoff'),
});
export const backupStatusSchema = z.object({
  last_backup: backupCreatedSchema.nullable().describe('The last backup this server process made'),
  replicas: z.array(replicaStatusSchema).describe('plus.disaster_recovery replicas, in configuration order'),
});
