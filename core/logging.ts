import { existsSync } from 'node:fs';
import { pino, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { build as prettyStream } from 'pino-pretty';
import { REDACTED } from './config/redact.js';
import type { LogSettings } from './config/schema.js';
import { ConfigError } from './errors.js';

/** The logger of every server component: pino with the spec's `critical` level on top. */
export type Logger = PinoLogger<'critical'>;

export interface LoggerOptions {
  readonly name: string;
  readonly log: LogSettings;
  /** Secret values that must never reach a log line; each occurrence is replaced by `************`. */
  readonly secrets?: readonly string[];
  /** Where `stderr_terminal` output goes instead of stderr (tests). */
  readonly terminal?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Structured fields that may carry credentials, censored wherever they are logged. */
const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'password',
  'secret',
  'token',
  '*.secret_key',
  '*.secret',
  '*.client_secret',
  '*.secret_access_key',
];

/**
 * Builds the logger described by `logging`. `stderr_terminal` writes human-readable lines to stderr (colored on
 * a TTY); `file` writes Bunyan-format JSON lines (v, level 10..60, name, hostname, pid, time, msg) to the path.
 */
export function createLogger(options: LoggerOptions): Logger {
  const scrub = secretScrubber(options.secrets ?? []);
  const pinoOptions = {
    name: options.name,
    level: options.log.level,
    customLevels: { critical: 60 },
    timestamp: stdTimeFunctions.isoTime,
    formatters: { bindings: (bindings: Record<string, unknown>) => ({ ...bindings, v: 0 }) },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: scrub },
  };
  return pino(pinoOptions, destinationFor(options));
}

function destinationFor(options: LoggerOptions): DestinationStream {
  const { log } = options;
  if (log.mode === 'file') {
    if (log.if_exists === 'fail' && existsSync(log.path)) {
      throw new ConfigError('logging', [
        {
          path: 'logging.log.if_exists',
          message: `is fail and the log file ${log.path} already exists; move it away or choose append or truncate`,
        },
      ]);
    }
    return pino.destination({ dest: log.path, append: log.if_exists === 'append', mkdir: true, sync: true });
  }
  const terminal = options.terminal ?? process.stderr;
  return prettyStream({
    destination: terminal,
    sync: true,
    colorize: terminal.isTTY === true,
    customLevels: 'critical:60',
    customColors: 'trace:gray,debug:blue,info:green,warn:yellow,error:red,critical:bgRed',
    useOnlyCustomProps: false,
    ignore: 'pid,hostname,v',
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
  });
}

/** Replaces each secret value (raw and JSON-escaped) in a serialized log line. */
function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const needles = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].filter(
    (s) => s.length > 0,
  );
  if (needles.length === 0) return (line) => line;
  return (line) => {
    let out = line;
    for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  };
}
