import { createHash, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRC32C } from '@google-cloud/storage';

export interface LocalGcs {
  readonly endpoint: string;
  /** A service-account credentials file whose token_uri is this stand-in. */
  readonly credentialsFile: string;
  /** Requests refused for want of a valid signed bearer. */
  readonly unauthorized: () => number;
  close(): Promise<void>;
}

const crc32c = (content: Buffer) => {
  const sum = new CRC32C();
  sum.update(content);
  return sum.toString();
};

const body = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The parts of a multipart/related upload: JSON metadata, then the content. */
function multipart(contentType: string, payload: Buffer): { name?: string; content: Buffer } {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const text = payload.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  const [meta, content] = parts.map((part) => part.slice(part.indexOf('\r\n\r\n') + 4, -2));
  const { name } = JSON.parse(meta as string) as { name?: string };
  return { ...(name === undefined ? {} : { name }), content: Buffer.from(content as string, 'latin1') };
}

/**
 * A small stand-in of the Cloud Storage JSON API on 127.0.0.1: every call must carry a JWT signed with the
 * service account's key (self-signed, or exchanged at its token_uri), checked against the account's public key;
 * multipart upload answered with the object's CRC32C and MD5 (the client compares them with what it sent),
 * media download with both in x-goog-hash, listing by prefix, delete; every storage call must carry the token it issued.
 */
export async function startLocalGcs(buckets: readonly string[]): Promise<LocalGcs> {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-gcs-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const objects = new Map(buckets.map((bucket) => [bucket, new Map<string, Buffer>()]));
  const tokens = new Set<string>();
  let unauthorized = 0;
  /** A JWT signed with the service account's key (a token request's assertion, or a self-signed bearer). */
  const signedByAccount = (jwt: string) => {
    const [header, claims, signature] = jwt.split('.');
    return (
      signature !== undefined &&
      createVerify('RSA-SHA256')
        .update(`${header}.${claims}`)
        .verify(publicKey, Buffer.from(signature, 'base64url'))
    );
  };
  const json = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  const resource = (bucket: string, name: string, content: Buffer) => ({
    kind: 'storage#object',
    bucket,
    name,
    size: String(content.length),
    md5Hash: createHash('md5').update(content).digest('base64'),
    crc32c: crc32c(content),
  });
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const payload = await body(request);
      if (url.pathname === '/token') {
        if (!signedByAccount(new URLSearchParams(payload.toString()).get('assertion') ?? ''))
          return json(response, 400, { error: 'invalid_grant' });
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        return json(response, 200, { access_token: token, expires_in: 3600, token_type: 'Bearer' });
      }
      const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(bearer) && !signedByAccount(bearer)) {
        unauthorized++;
        return json(response, 401, { error: { code: 401, message: 'Invalid Credentials' } });
      }
      const route = /^(?:\/upload)?\/storage\/v1\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(url.pathname);
      const bucket = route && objects.get(decodeURIComponent(route[1] as string));
      if (!route || !bucket) return json(response, 404, { error: { code: 404, message: 'Not Found' } });
      const bucketName = decodeURIComponent(route[1] as string);
      const name = route[2] === undefined ? undefined : decodeURIComponent(route[2]);
      if (request.method === 'POST' && url.pathname.startsWith('/upload/')) {
        const upload = multipart(request.headers['content-type'] ?? '', payload);
        const key = upload.name ?? url.searchParams.get('name');
        if (!key) return json(response, 400, { error: { code: 400, message: 'no object name' } });
        bucket.set(key, upload.content);
        return json(response, 200, resource(bucketName, key, upload.content));
      }
      if (request.method === 'GET' && name === undefined) {
        const prefix = url.searchParams.get('prefix') ?? '';
        const items = [...bucket].filter(([key]) => key.startsWith(prefix));
        return json(response, 200, {
          kind: 'storage#objects',
          items: items.map(([key, content]) => resource(bucketName, key, content)),
        });
      }
      const content = name === undefined ? undefined : bucket.get(name);
      if (!content || name === undefined)
        return json(response, 404, { error: { code: 404, message: 'No such object' } });
      if (request.method === 'DELETE') {
        bucket.delete(name);
        return response.writeHead(204).end();
      }
      if (url.searchParams.get('alt') === 'media')
        return response
          .writeHead(200, {
            'content-type': 'application/octet-stream',
            'x-goog-hash': `crc32c=${crc32c(content)},md5=${createHash('md5').update(content).digest('base64')}`,
          })
          .end(content);
      return json(response, 200, resource(bucketName, name, content));
    })().catch((error: unknown) => json(response, 500, { error: { code: 500, message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentialsFile = join(dir, 'service-account.json');
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'benchtrack-test',
      private_key_id: 'key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: 'replica@benchtrack-test.iam.gserviceaccount.com',
      client_id: '1',
      token_uri: `${endpoint}/token`,
    }),
  );
  return {
    endpoint,
    credentialsFile,
    unauthorized: () => unauthorized,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
