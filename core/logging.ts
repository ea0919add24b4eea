import { existsSync } from 'node:fs';
import {
  pino,
  stdTimeFunctions,
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger as PinoLogger,
} from 'pino';
import { build as prettyStream } from 'pino-pretty';
import { REDACTED } from './config/redact.js';
import type { LogSettings } from './config/schema.js';
import { fileLocationProblem } from './config/writable.js';
import { ConfigError } from './errors.js';
import { censorSecretKeys, SECRET_KEYS, secretScrubber } from './log-redaction.js';

/** The logger of every server component: pino with the spec's `critical` level on top. */
export type Logger = PinoLogger<'critical'>;

export interface LoggerOptions {
  readonly name: string;
  readonly log: LogSettings;
  /**
   * The secret values that must never reach a log line, read for every line (the running configuration's):
   * each occurrence as a whole token is replaced by `************`.
   */
  readonly secrets?: () => readonly string[];
  /** Where `stderr_terminal` output goes instead of stderr (tests). */
  readonly terminal?: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * Builds the logger described by `logging`. `stderr_terminal` writes human-readable lines to stderr (colored on
 * a TTY); `file` writes Bunyan-format JSON lines (v, level 10..60, name, hostname, pid, time, msg) to the path.
 */
export function createLogger(options: LoggerOptions): Logger {
  const scrub = secretScrubber(options.secrets ?? (() => []));
  const pinoOptions = {
    name: options.name,
    level: options.log.level,
    customLevels: { critical: 60 },
    timestamp: stdTimeFunctions.isoTime,
    formatters: {
      bindings: (bindings: Record<string, unknown>) => ({ ...bindings, v: 0 }),
      log: (object: Record<string, unknown>) => censorSecretKeys(object),
    },
    // The key walk sees what is logged; a child's bindings go through it in `censorChildBindings`, and pino's
    // redaction covers the top-level keys of both.
    redact: { paths: [...SECRET_KEYS], censor: REDACTED },
    hooks: { streamWrite: scrub },
  };
  return censorChildBindings(pino(pinoOptions, destinationFor(options)));
}

/**
 * Makes `child` censor secret keys at any depth of the bindings it is given. pino serializes a child's bindings
 * once, when the child is made, past `formatters.log` (and children do not inherit `formatters.bindings`), so
 * they are censored before pino sees them. A child is made from its parent's prototype, so children of children
 * inherit the censoring `child`.
 */
function censorChildBindings(logger: Logger): Logger {
  const child = logger.child;
  logger.child = function <L extends string = never>(
    this: Logger,
    bindings: Bindings,
    options?: ChildLoggerOptions<L>,
  ) {
    return Reflect.apply(child, this, [censorSecretKeys(bindings), options]) as PinoLogger<'critical' | L>;
  };
  return logger;
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
    const problem = fileLocationProblem(log.path, 'log file');
    if (problem) throw new ConfigError('logging', [{ path: 'logging.log.path', message: problem }]);
    return pino.destination({ dest: log.path, append: log.if_exists === 'append', mkdir: true, sync: true });
  }
  const terminal = options.terminal ?? process.stderr;
  let stream = terminalStreams.get(terminal);
  if (!stream) {
    stream = prettyTo(terminal);
    terminalStreams.set(terminal, stream);
  }
  return stream;
}

/**
 * One pretty-printing stream per terminal, shared by every logger that writes there: each stream pipes into the
 * terminal for good, so a stream per logger (an app per test, a server per bench configuration) piled listeners
 * on process.stderr (MaxListenersExceededWarning after ten).
 */
const terminalStreams = new WeakMap<NodeJS.WritableStream, DestinationStream>();

function prettyTo(terminal: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
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
