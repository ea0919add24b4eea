import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../core/index.js';
import type { ErrorBody } from './error-handler.js';

/** Headers of the API's answers that a browser script may read (CORS). */
export const EXPOSED_HEADERS = ['X-Total-Count', 'X-Benchtrack-Pending-Restart'];

/** Node's limit on the request line and headers together (`--max-http-header-size`). */
const HEADER_LIMIT = 16 * 1024;

/** Status and message for a request Node's HTTP parser refused before any route could see it. */
function describe(error: NodeJS.ErrnoException): { status: number; code: string; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'invalid_input',
        message: `the request line and headers are larger than ${HEADER_LIMIT} bytes; send fewer or shorter headers`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'invalid_input',
        message: 'the request was not received in time; send the whole request at once',
      };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return {
        status: 400,
        code: 'invalid_input',
        message: `the request's body length is ambiguous or invalid (${error.code}): send one Content-Length, or Transfer-Encoding: chunked, not both`,
      };
    default:
      return {
        status: 400,
        code: 'invalid_input',
        message: `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'}); check the client`,
      };
  }
}

/**
 * Answers requests that Node's HTTP parser refuses (oversized headers, conflicting Content-Length and
 * Transfer-Encoding, a request that never finishes arriving) in the API's error shape, with a request id, the
 * CORS headers every answer carries and `Connection: close`, instead of Node's own body. They are the client's
 * doing: logged at debug level.
 */
export function clientErrorHandler(logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = describe(error);
    const body: ErrorBody = { request_id: randomUUID(), error_code: code, message };
    logger.debug({ request_id: body.request_id, status, code: error.code }, 'malformed request refused');
    // a response already under way on this keep-alive connection cannot be followed by another
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (socket.writable && !answering) {
      const text = JSON.stringify(body);
      socket.write(
        [
          `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
          'Content-Type: application/json; charset=utf-8',
          `Content-Length: ${Buffer.byteLength(text)}`,
          'Access-Control-Allow-Origin: *',
          `Access-Control-Expose-Headers: ${EXPOSED_HEADERS.join(', ')}`,
          'X-Total-Count: 0',
          'Connection: close',
          '',
          text,
        ].join('\r\n'),
      );
    }
    socket.destroy(error);
  };
}
