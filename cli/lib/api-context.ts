import * as core from './api-schemas.js';
import type { BackendOptions } from './backend-options.js';
import { ApiClient, tokenSubject, type ApiResponse } from './client.js';
import { UsageError } from './errors.js';

/** What a resource command works with: the client, core's schemas, and the ways to print an answer. */
export interface ApiContext {
  readonly client: ApiClient;
  readonly core: typeof core;
  /** Prints an answer as the server sent it (pretty JSON); for lists, says on stderr when there are more pages. */
  print(response: ApiResponse<unknown>): void;
  /** Prints a line for people on stdout (after a delete, which answers with nothing). */
  say(message: string): void;
  /** The user the token belongs to, for commands whose user argument is optional. */
  self(): string;
}

export function apiContext(options: BackendOptions): ApiContext {
  const client = new ApiClient(options);
  return {
    client,
    core,
    print(response) {
      process.stdout.write(`${JSON.stringify(response.raw, null, 2)}\n`);
      if (
        Array.isArray(response.raw) &&
        response.total !== undefined &&
        response.total > response.raw.length
      ) {
        process.stderr.write(
          `benchtrack: ${response.raw.length} of ${response.total} shown; use --page and --per-page (up to 255) for the rest\n`,
        );
      }
    },
    say(message) {
      process.stdout.write(`${message}\n`);
    },
    self() {
      const subject = tokenSubject(options.token);
      if (!subject)
        throw new UsageError('name the user, or pass your API token with --token (or BENCHTRACK_API_TOKEN)');
      return subject;
    },
  };
}
