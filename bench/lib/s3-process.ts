/**
 * s3rver in a process of its own, so the bench's API process pays for its uploads and not for the S3 server
 * receiving them (a real bucket runs elsewhere). Run by `startS3Process`; prints its endpoint, stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startLocalS3 } from '../../test/helpers/s3.js';

export interface S3Process {
  readonly endpoint: string;
  close(): Promise<void>;
}

/** Starts this file as a child process with the given buckets and waits for its endpoint. */
export async function startS3Process(buckets: readonly string[]): Promise<S3Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...buckets], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the S3 server process exited with ${String(code)} before it listened`);
    }),
  ])) as [string];
  return {
    endpoint: line,
    async close() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s3 = await startLocalS3(process.argv.slice(2));
  process.stdout.write(`${s3.endpoint}\n`);
  process.once('SIGTERM', () => void s3.close().then(() => process.exit(0)));
}
