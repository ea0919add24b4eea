import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REDACTED } from './config/redact.js';
import { ConfigError } from './errors.js';
import { createLogger } from './logging.js';

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-log-'));
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('file mode', () => {
  it('writes Bunyan-format JSON lines at and above the level', () => {
    const path = join(dir, 'nested', 'bunyan.log');
    const logger = createLogger({
      name: 'Benchtrack API',
      log: { mode: 'file', level: 'warn', path, if_exists: 'append' },
    });
    logger.info('not written');
    logger.warn({ detail: 1 }, 'careful');
    logger.critical('on fire');
    const [warn, critical, ...rest] = lines(path);
    expect(rest).toEqual([]);
    expect(warn).toMatchObject({
      v: 0,
      level: 40,
      name: 'Benchtrack API',
      hostname: hostname(),
      pid: process.pid,
      msg: 'careful',
      detail: 1,
    });
    expect(new Date(warn?.time as string).toISOString()).toBe(warn?.time);
    expect(critical).toMatchObject({ level: 60, msg: 'on fire' });
  });

  it('appends, truncates, or refuses an existing file', () => {
    const path = join(dir, 'existing.log');
    writeFileSync(path, '{"old":true}\n');
    createLogger({ name: 'n', log: { mode: 'file', level: 'info', path, if_exists: 'append' } }).info(
      'appended',
    );
    expect(lines(path).map((l) => l.msg ?? 'old')).toEqual(['old', 'appended']);
    createLogger({ name: 'n', log: { mode: 'file', level: 'info', path, if_exists: 'truncate' } }).info(
      'fresh',
    );
    expect(lines(path).map((l) => l.msg)).toEqual(['fresh']);
    expect(() =>
      createLogger({ name: 'n', log: { mode: 'file', level: 'info', path, if_exists: 'fail' } }),
    ).toThrow(ConfigError);
    const fresh = join(dir, 'fail-new.log');
    createLogger({ name: 'n', log: { mode: 'file', level: 'info', path: fresh, if_exists: 'fail' } }).info(
      'ok',
    );
    expect(existsSync(fresh)).toBe(true);
  });

  it('never writes a secret, wherever it appears', () => {
    const path = join(dir, 'secrets.log');
    const secret = 'hunter2-"quoted"-secret';
    const logger = createLogger({
      name: 'n',
      log: { mode: 'file', level: 'trace', path, if_exists: 'truncate' },
      secrets: () => [secret],
    });
    logger.info(`message with ${secret}`);
    logger.info(
      { nested: { value: secret }, authorization: 'Bearer abc', config: { secret_key: 'k' } },
      'fields',
    );
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text.split(REDACTED).length - 1).toBe(4);
  });
});

describe('child loggers', () => {
  it('censor secrets nested in their bindings, at any depth and in children of children', () => {
    const path = join(dir, 'child-bindings.log');
    const logger = createLogger({
      name: 'n',
      log: { mode: 'file', level: 'info', path, if_exists: 'truncate' },
    });
    const child = logger.child({
      store: { endpoint: 'http://s3.local', credentials: { secret_access_key: 'nested-s3-secret' } },
      headers: [{ Authorization: 'Bearer nested-bearer' }],
    });
    child.info('child');
    child.child({ job: { runner: { token: 'grandchild-token' } } }).info('grandchild');
    const text = readFileSync(path, 'utf8');
    for (const secret of ['nested-s3-secret', 'nested-bearer', 'grandchild-token'])
      expect(text).not.toContain(secret);
    const [first, second] = lines(path);
    expect(first).toMatchObject({
      msg: 'child',
      store: { endpoint: 'http://s3.local', credentials: { secret_access_key: REDACTED } },
      headers: [{ Authorization: REDACTED }],
    });
    expect(second).toMatchObject({ msg: 'grandchild', job: { runner: { token: REDACTED } } });
  });
});

describe('stderr_terminal mode', () => {
  it('writes human-readable lines without colors when not a TTY', () => {
    const terminal = new PassThrough();
    let out = '';
    terminal.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const logger = createLogger({
      name: 'Benchtrack API',
      log: { mode: 'stderr_terminal', level: 'debug' },
      terminal,
    });
    logger.debug({ port: 1 }, 'listening');
    logger.critical('stop');
    expect(out).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] DEBUG \(Benchtrack API\): listening\n\s+port: 1\n/,
    );
    expect(out).toContain('CRITICAL (Benchtrack API): stop');
    expect(out).not.toContain('\u001b[');
  });

  it('shares one stream per terminal: a dozen loggers add no listeners to it, each keeps its name and level', () => {
    const terminal = new PassThrough();
    let out = '';
    terminal.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const make = (i: number) =>
      createLogger({
        name: `app-${i}`,
        log: { mode: 'stderr_terminal', level: i % 2 ? 'error' : 'info' },
        terminal,
      });
    make(0);
    const listeners = () => terminal.eventNames().map((event) => terminal.listenerCount(event));
    const first = listeners();
    const loggers = Array.from({ length: 12 }, (_, i) => make(i));
    expect(listeners()).toEqual(first);
    loggers.forEach((logger, i) => logger.info(`hello ${i}`));
    expect(out).toContain('INFO (app-2): hello 2');
    expect(out).not.toContain('hello 3');
  });
});
