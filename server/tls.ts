import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from '../core/index.js';

type Tls = Config['server']['tls'];

/** Certificate and key for fastify's `https` option, or `null` for plain HTTP. */
export function tlsOptions(tls: Tls): { cert: Buffer; key: Buffer } | null {
  if (!tls) return null;
  if (tls.type === 'as_bytes') return { cert: Buffer.from(tls.certs), key: Buffer.from(tls.key) };
  return {
    cert: readPem(tls.cert_file, 'server.tls.cert_file'),
    key: readPem(tls.key_file, 'server.tls.key_file'),
  };
}

function readPem(path: string, key: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError('server.tls', [
      {
        path: key,
        message: `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      },
    ]);
  }
}
