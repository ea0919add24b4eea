import { open, readFile, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { paths, type Service } from './state.js';

export interface LogsOptions {
  readonly services: readonly Service[];
  readonly follow: boolean;
  /** Lines of the existing log to show first. */
  readonly tail: number;
  /** Stops following (tests and Ctrl+C). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * `benchtrack logs`: the last lines of each service's log, then (with follow) what they write next, polled,
 * until interrupted. With several services each line is prefixed by its service's name.
 */
export async function showLogs(dir: string, options: LogsOptions): Promise<void> {
  const prefix = (service: Service) => (options.services.length > 1 ? `${service.padEnd(7)} | ` : '');
  const write = (service: Service, text: string) => {
    if (text === '') return;
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    process.stdout.write(`${lines.map((line) => `${prefix(service)}${line}`).join('\n')}\n`);
  };
  const offsets = new Map<Service, number>();
  let found = false;
  for (const service of options.services) {
    const file = paths(dir, service).log;
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    found = true;
    write(
      service,
      text
        .split('\n')
        .slice(-options.tail - 1)
        .join('\n'),
    );
    offsets.set(service, Buffer.byteLength(text));
  }
  if (!found) {
    throw Object.assign(new Error(`no logs in ${dir}: start the services with \`benchtrack up\``), {
      code: 'LOGS',
    });
  }
  while (options.follow && !options.signal?.aborted) {
    await sleep(250);
    for (const [service, offset] of offsets) {
      const file = paths(dir, service).log;
      const size = (await stat(file).catch(() => undefined))?.size ?? 0;
      if (size < offset) offsets.set(service, 0);
      if (size <= offset) continue;
      const handle = await open(file, 'r');
      const buffer = Buffer.alloc(size - offset);
      await handle.read(buffer, 0, buffer.length, offset);
      await handle.close();
      offsets.set(service, size);
      write(service, buffer.toString('utf8'));
    }
  }
}
