import { isIP } from 'node:net';
import { z } from 'zod';
import { ACCESS_POINT_FORM, parseAccessPoint } from '../backup/access-point.js';
import { durationMs } from '../replication/duration.js';

/**
 * The server configuration document (spec: "Server configuration document"), plus the `plugins` list that
 * loads third-party plugins by module specifier. Every object is strict: an unknown key is an error.
 */

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'critical'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A string that must be present; the message says when it is required. */
function required(when?: string, minLength = 1) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `is required${when ? ` when ${when}` : ''}` : 'must be a string',
    })
    .min(minLength, {
      error:
        minLength === 1
          ? `must not be empty${when ? ` when ${when}` : ''}`
          : `must be at least ${minLength} characters long`,
    });
}

/**
 * Shortest secret accepted (`security.secret_key` asks for more). The log redacts each secret wherever it stands
 * as a whole token; a shorter one would be a common word or a guessable password.
 */
export const SECRET_MIN_LENGTH = 8;

const secret = (when?: string) => required(when, SECRET_MIN_LENGTH);

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => `must be one of ${values.join(', ')}, got ${JSON.stringify(issue.input)}`,
  });
}

/** Message for a discriminated union whose discriminator key is missing or has an unknown value. */
function discriminator(key: string, values: readonly string[]) {
  return (issue: { input?: unknown }) => {
    const input = issue.input;
    const value =
      typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : input;
    return value === undefined
      ? `is required: one of ${values.join(', ')}`
      : `must be one of ${values.join(', ')}, got ${JSON.stringify(value)}`;
  };
}

function integer(min: number, max: number) {
  return z
    .number({ error: 'must be a number' })
    .int({ error: 'must be an integer' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });
}

const GO_DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const duration = z.string().regex(GO_DURATION, { error: 'must be a duration such as 30s, 1h or 1h30m' });

const consoleSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .default('http://localhost:3000'),
  })
  .prefault({});

export const DEFAULT_ISSUER = 'benchtrack';

const securitySchema = z
  .strictObject({
    issuer: z.string().min(1, { error: 'must not be empty' }).default(DEFAULT_ISSUER),
    /** Optional in the document: a missing key is generated at load time with a warning. */
    secret_key: z.string().min(16, { error: 'must be at least 16 characters long' }).optional(),
  })
  .prefault({});

const BIND_ADDRESS = /^(?:\[(?<v6>[0-9a-fA-F:.]+)\]|(?<v4>[0-9.]+)):(?<port>\d{1,5})$/;

export function parseBindAddress(value: string): { host: string; port: number } | undefined {
  const match = BIND_ADDRESS.exec(value);
  if (!match?.groups) return undefined;
  const host = match.groups.v6 ?? match.groups.v4 ?? '';
  const port = Number(match.groups.port);
  if (isIP(host) === 0 || port > 65535) return undefined;
  return { host, port };
}

const bindAddress = z.string().refine((value) => parseBindAddress(value) !== undefined, {
  error: (issue) =>
    `must be one IP address and port such as 0.0.0.0:61016 or [::1]:61016, got ${JSON.stringify(issue.input)}`,
});

/** An IP address, or a CIDR block such as 10.0.0.0/8 or fd00::/8. */
function isAddressOrBlock(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustedProxies = z
  .array(
    z.string().refine(isAddressOrBlock, {
      error: (issue) =>
        `must be an IP address or a CIDR block such as 10.0.0.1 or 10.0.0.0/8, got ${JSON.stringify(issue.input)}`,
    }),
    { error: 'must be a list of IP addresses or CIDR blocks of the reverse proxies in front of the API' },
  )
  .optional();

const byteArray = (when: string) =>
  z
    .array(integer(0, 255), {
      error: (issue) =>
        issue.input === undefined ? `is required when ${when}` : 'must be an array of bytes (0-255)',
    })
    .min(1, { error: `must not be empty when ${when}` });

const tlsSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('as_file'),
      cert_file: required('tls.type is as_file'),
      key_file: required('tls.type is as_file'),
    }),
    z.strictObject({
      type: z.literal('as_bytes'),
      certs: byteArray('tls.type is as_bytes'),
      key: byteArray('tls.type is as_bytes'),
    }),
  ],
  { error: discriminator('type', ['as_file', 'as_bytes']) },
);

const serverSchema = z
  .strictObject({
    bind_address: bindAddress.default('0.0.0.0:61016'),
    request_body_max_bytes: integer(1, 2 ** 31 - 1).default(1_048_576),
    tls: tlsSchema.optional(),
    /**
     * Reverse proxies whose X-Forwarded-For names the client the limiters count. Absent or empty: the client
     * is the socket's peer, and the header is ignored.
     */
    trusted_proxies: trustedProxies,
  })
  .prefault({});

const logLevel = oneOf(LOG_LEVELS).default('info');

const stderrLog = z.strictObject({ level: logLevel });
const fileLog = z.strictObject({
  level: logLevel,
  path: required('the log mode is file'),
  if_exists: z.enum(['append', 'truncate', 'fail'], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required when the log mode is file (append, truncate or fail)'
        : `must be one of append, truncate, fail, got ${JSON.stringify(issue.input)}`,
  }),
});
const flatStderrLog = z.strictObject({
  mode: oneOf(['stderr_terminal', 'stderr-terminal', 'file']).default('stderr_terminal'),
  level: logLevel,
});
const flatFileLog = z.strictObject({
  mode: z.literal('file'),
  level: logLevel,
  path: required('mode is file'),
  if_exists: z.enum(['append', 'truncate', 'fail'], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required when mode is file (append, truncate or fail)'
        : `must be one of append, truncate, fail, got ${JSON.stringify(issue.input)}`,
  }),
});

/** The one internal form of the log settings, whichever spelling the document used. */
export type LogSettings =
  | { mode: 'stderr_terminal'; level: LogLevel }
  | { mode: 'file'; level: LogLevel; path: string; if_exists: 'append' | 'truncate' | 'fail' };

const NESTED_MODES = ['stderr_terminal', 'stderr-terminal', 'file'] as const;

/**
 * `logging.log` comes in two spellings: the flat table of the spec (`{mode, level, path, if_exists}`) and the
 * nested form of its example document (`{stderr_terminal: {level}}` or `{file: {level, path, if_exists}}`).
 * Both normalize to {@link LogSettings}; issues keep the path the author wrote.
 */
const logSchema = z
  .unknown()
  .optional()
  .transform((input, ctx): LogSettings => {
    const keys =
      typeof input === 'object' && input !== null && !Array.isArray(input) ? Object.keys(input) : [];
    const nested = keys.length === 1 && (NESTED_MODES as readonly string[]).includes(keys[0] as string);
    const fail = (issues: readonly z.core.$ZodIssue[], prefix: string[]) => {
      for (const issue of issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: [...prefix, ...issue.path] });
      }
      return z.NEVER;
    };
    if (nested) {
      const mode = keys[0] as (typeof NESTED_MODES)[number];
      const body = (input as Record<string, unknown>)[mode];
      if (mode === 'file') {
        const parsed = fileLog.safeParse(body);
        return parsed.success ? { mode: 'file', ...parsed.data } : fail(parsed.error.issues, [mode]);
      }
      const parsed = stderrLog.safeParse(body ?? {});
      return parsed.success
        ? { mode: 'stderr_terminal', level: parsed.data.level }
        : fail(parsed.error.issues, [mode]);
    }
    const flat = (input ?? {}) as Record<string, unknown>;
    if (flat.mode === 'file') {
      const parsed = flatFileLog.safeParse(flat);
      return parsed.success ? { ...parsed.data, mode: 'file' } : fail(parsed.error.issues, []);
    }
    const parsed = flatStderrLog.safeParse(flat);
    return parsed.success
      ? { mode: 'stderr_terminal', level: parsed.data.level }
      : fail(parsed.error.issues, []);
  });

export const DEFAULT_LOGGER_NAME = 'Benchtrack API';

const loggingSchema = z
  .strictObject({
    name: z.string().min(1, { error: 'must not be empty' }).default(DEFAULT_LOGGER_NAME),
    log: logSchema,
  })
  .prefault({});

export const DEFAULT_DATABASE_FILE = '/var/lib/benchtrack/data/benchtrack.db';

const dataStoreSchema = z.strictObject({
  service: z.literal('cloud_s3', { error: 'must be cloud_s3 (the only supported data store)' }),
  access_key_id: required('data_store.service is cloud_s3'),
  secret_access_key: secret('data_store.service is cloud_s3'),
  access_point: required('data_store.service is cloud_s3').refine(
    (value) => parseAccessPoint(value) !== undefined,
    { error: (issue) => `must look like ${ACCESS_POINT_FORM}, got ${JSON.stringify(issue.input)}` },
  ),
  /**
   * Extension: the URL of an S3-compatible store (MinIO, Ceph, s3rver, ...). The access point's name is then
   * the bucket, addressed path-style; without it, AWS S3 is reached through the access point ARN.
   */
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
});

export type DataStoreConfig = z.output<typeof dataStoreSchema>;
export type ReplicaConfig = z.output<typeof replicaSchema>;

/** A memory size in DuckDB's notation: a number and a unit (MB, GB, TB decimal; MiB, GiB, TiB binary). */
const MEMORY_SIZE = /^(\d+(?:\.\d+)?)\s*(MB|GB|TB|MiB|GiB|TiB)$/;
const MEMORY_UNITS: Record<string, number> = {
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  MiB: 2 ** 20,
  GiB: 2 ** 30,
  TiB: 2 ** 40,
};
/** Below this, DuckDB fails ordinary perf queries and ingest for want of buffer space. */
const MEMORY_LIMIT_MIN_BYTES = 128 * 2 ** 20;

/** Bytes of a size in DuckDB's notation, or undefined when it is not one. */
function memorySizeBytes(size: string): number | undefined {
  const match = MEMORY_SIZE.exec(size);
  return match ? Number(match[1]) * (MEMORY_UNITS[match[2] as string] as number) : undefined;
}

/**
 * Extension: the most memory the database engine may hold for its buffers, caches and the intermediate results
 * of queries (DuckDB's `memory_limit`; larger sorts and joins spill to disk next to the database file).
 */
const memoryLimit = z
  .string({ error: 'must be a string such as 1GiB' })
  .refine((value) => memorySizeBytes(value) !== undefined, {
    abort: true,
    error: (issue) =>
      `must be a number and a unit (MB, GB, TB, MiB, GiB or TiB), such as 1GiB, got ${JSON.stringify(issue.input)}`,
  })
  .refine((value) => (memorySizeBytes(value) ?? 0) >= MEMORY_LIMIT_MIN_BYTES, {
    error: (issue) => `must be at least 128MiB, got ${JSON.stringify(issue.input)}`,
  });

/** `scheme://...`: the scheme names the storage engine (postgres and postgresql are built in). */
const DATABASE_URL = /^([a-z][a-z0-9+.-]*):\/\/[^\s]+$/i;

const databaseUrl = z
  .string({ error: 'must be a string' })
  .regex(DATABASE_URL, {
    error:
      'must be a URL such as postgres://user:password@host:5432/benchtrack (its scheme names the engine)',
  })
  .refine((url) => !/^file:/i.test(url), {
    error: 'must name a database server; the embedded database is database.file (a path)',
  });

/**
 * `database.url` selects a database server (the engine serving its scheme); `database.file` alone, or nothing,
 * selects the embedded database file. Both at once is an error: which one holds the data would be a guess.
 */
const databaseSchema = z
  .strictObject({
    file: z.string().min(1, { error: 'must not be empty' }).optional(),
    url: databaseUrl.optional(),
    memory_limit: memoryLimit.optional(),
    /** Read-only URLs of streaming replicas of database.url's database, for perf queries and lists. */
    replicas: z.array(databaseUrl).max(16, { error: 'must list at most 16 replicas' }).optional(),
    data_store: dataStoreSchema.optional(),
  })
  .superRefine((database, ctx) => {
    if (database.replicas !== undefined && database.url === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['replicas'],
        message:
          'needs database.url: read replicas are copies of a database server (the embedded database.file has none); set database.url or remove database.replicas',
      });
    if (database.file !== undefined && database.url !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message:
          'cannot be given with database.file: database.url selects a database server, database.file the embedded database; keep one of them',
      });
    if (database.url !== undefined && database.memory_limit !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['memory_limit'],
        message:
          'applies to the embedded database only: a database server (database.url) sizes its own memory; remove it',
      });
  })
  // the embedded file's default only when no server is named: the configuration then says one place for the data
  .transform((database) =>
    database.url === undefined ? { ...database, file: database.file ?? DEFAULT_DATABASE_FILE } : database,
  )
  .prefault({});

const smtpSchema = z.strictObject({
  hostname: required(),
  port: integer(1, 65535).default(587),
  insecure_host: z.boolean({ error: 'must be true or false' }).default(false),
  starttls: z.boolean({ error: 'must be true or false' }).default(true),
  username: required(),
  secret: secret(),
  from_name: required(),
  from_email: z.email({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address'),
  }),
});

const replicaCommon = {
  retention: duration.default('24h'),
  retention_check_interval: duration.default('1h'),
  snapshot_interval: duration.optional(),
  validation_interval: duration.optional(),
  sync_interval: duration.default('1s'),
};
const optionalString = z.string().min(1, { error: 'must not be empty' }).optional();

const replicaSchema = z.discriminatedUnion(
  'scheme',
  [
    z.strictObject({ scheme: z.literal('file'), path: required('scheme is file'), ...replicaCommon }),
    z.strictObject({
      scheme: z.literal('sftp'),
      host: required('scheme is sftp'),
      port: integer(1, 65535).default(22),
      user: required('scheme is sftp'),
      password: secret().optional(),
      path: optionalString,
      key_path: optionalString,
      host_key: z
        .string()
        .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, {
          error:
            "must be the server's host key fingerprint as `ssh-keygen -lf <host key>.pub` prints it: SHA256: and 43 base64 characters",
        })
        .optional(),
      ...replicaCommon,
    }),
    z.strictObject({
      scheme: z.literal('s3'),
      bucket: required('scheme is s3'),
      path: optionalString,
      endpoint: z.url({ error: 'must be a URL' }).optional(),
      region: optionalString,
      access_key_id: required('scheme is s3'),
      secret_access_key: secret('scheme is s3'),
      ...replicaCommon,
    }),
    z.strictObject({
      scheme: z.literal('abs'),
      account_name: required('scheme is abs'),
      bucket: required('scheme is abs'),
      path: optionalString,
      account_key: secret('scheme is abs'),
      /** Extension: the Blob service URL of an emulator or sovereign cloud (default https://<account>.blob.core.windows.net). */
      endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
      ...replicaCommon,
    }),
    z.strictObject({
      scheme: z.literal('gcs'),
      bucket: required('scheme is gcs'),
      path: optionalString,
      /** Extension: the JSON API endpoint of a compatible store (default https://storage.googleapis.com). */
      endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
      ...replicaCommon,
    }),
  ],
  { error: discriminator('scheme', ['file', 'sftp', 's3', 'abs', 'gcs']) },
);

const url = (fallback: string) => z.url({ error: 'must be a URL' }).default(fallback);

/**
 * OAuth2 login through GitHub. The three URLs are an extension of the spec's keys: set them to a GitHub
 * Enterprise Server's (`https://<host>/login/oauth/authorize`, `https://<host>/login/oauth/access_token`,
 * `https://<host>/api/v3`).
 */
const codehostSchema = z.strictObject({
  client_id: required(),
  client_secret: secret(),
  authorize_url: url('https://github.com/login/oauth/authorize'),
  token_url: url('https://github.com/login/oauth/access_token'),
  api_url: url('https://api.github.com'),
});

const PUBLIC_KEY_PEM = /^-----BEGIN PUBLIC KEY-----\s[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----\s*$/;

const plusSchema = z.strictObject({
  codehost: codehostSchema.optional(),
  /** Extension: public keys (SPKI PEM) trusted to sign organization licenses, besides the built-in one. */
  license_keys: z
    .array(
      z.string().regex(PUBLIC_KEY_PEM, { error: 'must be a PEM public key (-----BEGIN PUBLIC KEY-----)' }),
      { error: 'must be a list of PEM public keys' },
    )
    .optional(),
  /** The daily metric quota of organizations without a paid plan; absent: no quota. */
  rate_limiting: z.strictObject({ daily_metrics: integer(1, 2 ** 31 - 1) }).optional(),
  disaster_recovery: z
    .strictObject({
      busy_timeout: integer(0, 2 ** 31 - 1).default(5000),
      replicas: z
        .array(replicaSchema, { error: 'is required: a list of replica objects' })
        .min(1, { error: 'must list at least one replica' }),
    })
    .optional(),
  stats: z
    .strictObject({
      offset: integer(0, 86_399).default(11_242),
      enabled: z.boolean({ error: 'must be true or false' }).default(true),
    })
    .optional(),
});

/**
 * Dedicated benchmark runners: a runner that sends no heartbeat for `heartbeat_timeout` loses its job, which
 * returns to the queue (docs/runners.md).
 */
const runnersSchema = z
  .strictObject({
    heartbeat_timeout: duration
      .refine((text) => durationMs(text) >= 1000 && durationMs(text) <= 3_600_000, {
        error: 'must be from 1s to 1h',
      })
      .default('60s'),
  })
  .prefault({});

/**
 * Webhooks and e-mail about regressions. `allow_private_targets` lets webhooks reach loopback, private,
 * link-local and unique-local addresses (a receiver on the same host or network); refused by default so that
 * whoever may create a webhook cannot probe the server's own network.
 */
const notificationsSchema = z.strictObject({
  allow_private_targets: z.boolean({ error: 'must be true or false' }).default(false),
});

const pluginEntry = z
  .union(
    [
      z.string().min(1),
      z.strictObject({ module: required(), options: z.record(z.string(), z.unknown()).optional() }),
    ],
    { error: 'must be a module specifier or {"module": "...", "options": {...}}' },
  )
  .transform((entry) => (typeof entry === 'string' ? { module: entry, options: undefined } : entry));

export const configSchema = z.strictObject({
  console: consoleSchema,
  security: securitySchema,
  server: serverSchema,
  logging: loggingSchema,
  database: databaseSchema,
  smtp: smtpSchema.optional(),
  plus: plusSchema.optional(),
  runners: runnersSchema,
  notifications: notificationsSchema.optional(),
  plugins: z.array(pluginEntry, { error: 'must be a list of plugin module specifiers' }).default([]),
});

/** The configuration as read from a document, before a missing secret key is generated. */
export type ParsedConfig = z.output<typeof configSchema>;

/** The configuration the server runs with. */
export type Config = ParsedConfig & { security: ParsedConfig['security'] & { secret_key: string } };

/** The document as an author writes it (input side of the schema). */
export type ConfigDocument = z.input<typeof configSchema>;
