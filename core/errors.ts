/**
 * The catalogue of business errors. They know nothing of HTTP: `server/error-handler.ts` maps them to
 * status codes by `name` (never `instanceof`, because errors that crossed a worker boundary lose their class).
 */

/** Stable, machine-readable error codes. A code never changes meaning once released. */
export type ErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'payment_required'
  | 'rate_limited'
  | 'payload_too_large'
  | 'config_invalid'
  | 'plugin_invalid'
  | 'storage_failure'
  | 'unavailable'
  | 'worker_failed'
  | 'internal';

export type ErrorName =
  | 'InputError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'UnauthorizedError'
  | 'ForbiddenError'
  | 'PaymentRequiredError'
  | 'RateLimitError'
  | 'PayloadTooLargeError'
  | 'ConfigError'
  | 'PluginError'
  | 'StorageError'
  | 'UnavailableError'
  | 'WorkerError'
  | 'InternalError';

export interface ErrorDetails {
  readonly [key: string]: unknown;
}

/** Base of every error Benchtrack raises on purpose. */
export abstract class BenchtrackError extends Error {
  abstract override readonly name: ErrorName;
  abstract readonly code: ErrorCode;

  constructor(
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The caller sent something that breaks a rule; the message names the field and the rule. */
export class InputError extends BenchtrackError {
  readonly name = 'InputError';
  readonly code = 'invalid_input';
}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFoundError extends BenchtrackError {
  readonly name = 'NotFoundError';
  readonly code = 'not_found';
}

export class ConflictError extends BenchtrackError {
  readonly name = 'ConflictError';
  readonly code = 'conflict';
}

/** Credentials are missing, malformed, expired or revoked. */
export class UnauthorizedError extends BenchtrackError {
  readonly name = 'UnauthorizedError';
  readonly code = 'unauthorized';
}

export class ForbiddenError extends BenchtrackError {
  readonly name = 'ForbiddenError';
  readonly code = 'forbidden';
}

/** The organization's license does not cover what was asked (more metrics than its entitlement, say). */
export class PaymentRequiredError extends BenchtrackError {
  readonly name = 'PaymentRequiredError';
  readonly code = 'payment_required';
}

/** Too many attempts; every refusal says when to retry (the HTTP answer's Retry-After). */
export class RateLimitError extends BenchtrackError {
  readonly name = 'RateLimitError';
  readonly code = 'rate_limited';

  constructor(message: string, retryAfterSeconds: number) {
    super(message, { retry_after_seconds: retryAfterSeconds });
  }
}

export class PayloadTooLargeError extends BenchtrackError {
  readonly name = 'PayloadTooLargeError';
  readonly code = 'payload_too_large';
}

/** One problem in a configuration document. */
export interface ConfigIssue {
  /** Dotted key path, e.g. `server.tls.cert_file`; empty for the document itself. */
  readonly path: string;
  readonly message: string;
}

/** The configuration document is unusable. Each issue becomes one line of output. */
export class ConfigError extends BenchtrackError {
  readonly name = 'ConfigError';
  readonly code = 'config_invalid';

  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(issues.map((issue) => formatConfigIssue(source, issue)).join('\n'), { source, issues });
  }
}

export function formatConfigIssue(source: string, issue: ConfigIssue): string {
  return `invalid configuration (${source}): ${issue.path || '(document)'}: ${issue.message}`;
}

/** A plugin definition or its options are unusable; the message names the plugin. */
export class PluginError extends BenchtrackError {
  readonly name = 'PluginError';
  readonly code = 'plugin_invalid';
}

export class StorageError extends BenchtrackError {
  readonly name = 'StorageError';
  readonly code = 'storage_failure';
}

/**
 * A dependency outside Benchtrack (mail relay, object store, the disk under the database) failed; the message says
 * what to do. `details.retry_after_seconds`, when set, becomes the answer's Retry-After header.
 */
export class UnavailableError extends BenchtrackError {
  readonly name = 'UnavailableError';
  readonly code = 'unavailable';
}

/**
 * A worker task ran past its time limit, or its thread died; the thread has been replaced and the pool goes on.
 * Details may carry `retry_after_seconds`, as UnavailableError's do.
 */
export class WorkerError extends BenchtrackError {
  readonly name = 'WorkerError';
  readonly code = 'worker_failed';
}

export class InternalError extends BenchtrackError {
  readonly name = 'InternalError';
  readonly code = 'internal';
}

/** Reads `name` from anything thrown, including plain objects that crossed a worker boundary. */
export function errorName(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'name' in error) {
    const { name } = error as { name: unknown };
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

/** Masks an e-mail address for error messages: `ada@example.com` becomes `a**@e******.com`. */
export function obfuscateEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '*'.repeat(email.length);
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const mask = (s: string) => (s.length === 0 ? '' : s[0] + '*'.repeat(s.length - 1));
  return `${mask(local)}@${mask(host)}${tld}`;
}
