import { createServer, type AddressInfo } from 'node:net';

/**
 * A port of 127.0.0.1 that was free a moment ago (the kernel picks it, so files running at once get different
 * ones), for a program that must be told its port before it starts.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
