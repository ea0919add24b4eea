import { InvalidArgumentError, Option, type Command } from 'commander';

/** Default API location: the local server `benchtrack up` starts (spec: port 61016). */
export const DEFAULT_HOST = 'http://localhost:61016';

/** The options every command that calls the API takes (reference section 5.1), as commander parses them. */
export interface BackendOptions {
  readonly host: string;
  readonly token?: string | undefined;
  readonly insecureHost?: boolean | undefined;
  readonly nativeTls?: boolean | undefined;
  readonly timeout: number;
  readonly attempts: number;
  readonly retryAfter: number;
  readonly maxRetryAfter: number;
  readonly strict?: boolean | undefined;
}

/** A commander parser for a number within bounds; `integer` refuses fractions. */
export function numberIn(min: number, max: number, integer = true) {
  return (value: string): number => {
    const n = Number(value);
    if (
      value.trim() === '' ||
      !Number.isFinite(n) ||
      (integer && !Number.isInteger(n)) ||
      n < min ||
      n > max
    ) {
      throw new InvalidArgumentError(`must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    }
    return n;
  };
}

/**
 * Adds the backend options to a command that calls the API. They sit on each such command rather than on the
 * program, so `benchtrack run --host ...` works in any order and each command's help lists them.
 */
export function addBackendOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--host <url>', 'URL of the Benchtrack API').env('BENCHTRACK_HOST').default(DEFAULT_HOST),
    )
    .addOption(
      new Option('--token <token>', 'API token (create one with `benchtrack token create`)').env(
        'BENCHTRACK_API_TOKEN',
      ),
    )
    .option('--insecure-host', 'accept an invalid TLS certificate (self-signed test servers)')
    .option('--native-tls', "also trust the operating system's certificate store")
    .option('--timeout <seconds>', 'timeout of each API request', numberIn(1, 900), 15)
    .option(
      '--attempts <n>',
      'attempts per request on connection errors, 5xx and 429 answers',
      numberIn(1, 255),
      10,
    )
    .option(
      '--retry-after <seconds>',
      "first wait before a retry (doubles each time; a 429 or 503's Retry-After replaces it)",
      numberIn(0, 300, false),
      1,
    )
    .option(
      '--max-retry-after <seconds>',
      'longest wait between retries: an answer asking to wait longer ends them',
      numberIn(0, 900, false),
      10,
    )
    .option('--strict', 'fail on response fields this client does not know (relaxed by default)');
}
