import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';

export const AZURE_ACCOUNT = 'benchtrackacct';
/** The account's shared key (base64, as Azure gives them). */
export const AZURE_KEY = Buffer.from('benchtrack-azure-account-key-0001').toString('base64');

export interface LocalAzurite {
  /** The Blob service URL of the account: http://127.0.0.1:<port>/<account> */
  readonly endpoint: string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const MAIN = join(dirname(require.resolve('azurite/package.json')), 'dist/src/blob/main.js');

/** Azurite's Blob service (npm) on a free port of 127.0.0.1, with one account and the given containers. */
export async function startAzurite(containers: readonly string[]): Promise<LocalAzurite> {
  const location = mkdtempSync(join(tmpdir(), 'benchtrack-azurite-'));
  const child = spawn(
    process.execPath,
    [
      MAIN,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      '0',
      '--location',
      location,
      '--skipApiVersionCheck',
      '--loose',
    ],
    {
      env: { ...process.env, AZURITE_ACCOUNTS: `${AZURE_ACCOUNT}:${AZURE_KEY}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Azurite did not start within 30 s: ${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`Azurite exited with ${code}: ${output}`)));
  });
  const endpoint = `http://127.0.0.1:${port}/${AZURE_ACCOUNT}`;
  const service = new BlobServiceClient(endpoint, new StorageSharedKeyCredential(AZURE_ACCOUNT, AZURE_KEY));
  for (const container of containers) await service.getContainerClient(container).create();
  return {
    endpoint,
    async close() {
      // SIGKILL: a graceful stop waits for every keep-alive connection of the clients to end, which can be never;
      // the data is thrown away anyway
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(location, { recursive: true, force: true });
    },
  };
}
