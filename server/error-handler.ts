import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  errorName,
  formatPath,
  nameProblem,
  obfuscateEmail,
  printableName,
  type ErrorName,
} from '../core/index.js';

/** The one mapping from business errors to HTTP status, keyed by error name. */
const STATUS: Record<ErrorName, number> = {
  InputError: 400,
  PayloadTooLargeError: 400,
  ConfigError: 400,
  PluginError: 400,
  UnauthorizedError: 401,
  PaymentRequiredError: 402,
  ForbiddenError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  RateLimitError: 429,
  StorageError: 500,
  UnavailableError: 503,
  WorkerError: 503,
  InternalError: 500,
};

/** The longest path segment (a UUID, slug or name) the router takes; longer ones are answered with 414. */
export const MAX_PARAM_LENGTH = 100;

export interface ErrorBody {
  request_id: string;
  error_code?: string;
  message: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Characters of a message at most; what a client sent is echoed in messages, and a body may hold a megabyte. */
export const MESSAGE_MAX = 1000;
/** Characters of one word (a run without spaces) at most: a key, name or value quoted back to the client. */
export const WORD_MAX = 100;

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/** Words over WORD_MAX cut to their start and their length, and the message bounded: one pass, stops early. */
function shorten(message: string): string {
  let out = '';
  let i = 0;
  while (i < message.length && out.length <= MESSAGE_MAX) {
    const space = isSpace(message.charCodeAt(i));
    let j = i + 1;
    while (j < message.length && isSpace(message.charCodeAt(j)) === space) j++;
    const long = !space && j - i > WORD_MAX;
    out += long ? `${message.slice(i, i + WORD_MAX / 2)}…(${j - i} characters)` : message.slice(i, j);
    i = j;
  }
  return out.length > MESSAGE_MAX || i < message.length
    ? `${out.slice(0, MESSAGE_MAX)}…(message shortened)`
    : out;
}

/**
 * Every error message leaves the server shortened and with e-mail addresses masked (spec: Errors). Masking runs on
 * the shortened message, whose words are short: its pattern backtracks over a run of address characters, which on
 * a long run would cost time quadratic in its length.
 */
export function clean(message: string): string {
  return shorten(message).replace(EMAIL, obfuscateEmail);
}

/** Status, code and message for anything thrown while handling a request. */
export function describeError(
  error: unknown,
  bodyLimit: number,
  request?: Pick<FastifyRequest, 'method' | 'url'>,
): { status: number; code?: string; message: string; retryAfter?: number } {
  const name = errorName(error);
  if (name && name in STATUS) {
    const known = error as { code?: string; message: string; details?: { retry_after_seconds?: unknown } };
    const retryAfter = known.details?.retry_after_seconds;
    return {
      status: STATUS[name as ErrorName],
      code: known.code,
      message: known.message,
      ...(typeof retryAfter === 'number' ? { retryAfter } : {}),
    };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = fastifyError.validationContext ?? 'request';
    const lines = error.validation.map((v) => {
      const path = formatPath(
        String(v.instancePath ?? '')
          .split('/')
          .filter((part) => part !== '')
          .map((part) =>
            /^\d+$/.test(part) ? Number(part) : nameProblem(part) ? printableName(part) : part,
          ),
      );
      // a bad record key (a measure name in thresholds.models, say) carries its own problem nested inside
      const nested = (v.params as { issues?: { message: string }[] }).issues?.[0]?.message;
      return `${context}${path ? `.${path}` : ''}: ${v.keyword === 'invalid_key' && nested ? nested : v.message}`;
    });
    // A path whose UUID is malformed names no resource: 404, like a path no route matches.
    const malformedId = error.validation.every(
      (v) => v.keyword === 'invalid_format' && (v.params as { format?: string }).format === 'uuid',
    );
    if (context === 'params' && malformedId && request)
      return {
        status: 404,
        code: 'not_found',
        message: `nothing at ${request.method} ${request.url.split('?')[0]} (${lines.join('; ')})`,
      };
    return { status: 400, code: 'invalid_input', message: lines.join('; ') };
  }
  if (isResponseSerializationError(error))
    return { status: 500, code: 'internal', message: 'internal error' };
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return {
      status: 414,
      code: 'invalid_input',
      message: `a path segment is longer than ${MAX_PARAM_LENGTH} characters; name the resource by its UUID or slug`,
    };
  }
  if (fastifyError.code === 'FST_ERR_BAD_URL') {
    return {
      status: 400,
      code: 'invalid_input',
      message: 'the URL path is not valid percent-encoding; encode each segment with encodeURIComponent',
    };
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 400,
      code: 'payload_too_large',
      message: `request body is larger than server.request_body_max_bytes (${bodyLimit} bytes); send less per request`,
    };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'invalid_input', message: fastifyError.message };
  }
  return { status: 500, code: 'internal', message: 'internal error' };
}

/**
 * Fastify error handler: one body shape for every error; only server faults are logged at error level, with the
 * error; a 503 that says when to retry is logged at warn level in one line. An error that knows when to come back (details.retry_after_seconds) sets Retry-After.
 */
export function errorHandler(bodyLimit: () => number) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const { status, code, message, retryAfter } = describeError(error, bodyLimit(), request);
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    // a client that left (while its request waited for a place, say) is no server fault: nobody reads the answer
    if (status >= 500 && request.raw.destroyed) {
      request.log.info({ status, reason: message }, 'request ended: its client left');
    } else if (status === 503 && retryAfter !== undefined) {
      // a refusal that says when to come back (the server busy, a dependency down for a while) is the service
      // shedding load as designed: one line without a stack, so a storm of them does not bury the faults
      request.log.warn({ status, reason: message, retry_after: retryAfter }, 'request refused for now');
    } else if (status >= 500) {
      request.log.error({ err: error, request_id: request.id }, 'request failed');
    }
    const body: ErrorBody = {
      request_id: request.id,
      ...(code ? { error_code: code } : {}),
      message:
        status >= 500 && status !== 503
          ? `${message}; report it with request id ${request.id}`
          : clean(message),
    };
    return reply.status(status).type('application/json').send(body);
  };
}
