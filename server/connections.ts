import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { App } from './app.js';

/**
 * When `app` closes, closes every connection that carries no request, at once, and each other one as soon as its
 * last request ends. Node closes idle keep-alive connections itself, but counts a connection that has not sent a
 * request yet (a browser's preconnect, a probe) as active: a stop then waited its whole grace period for it (10 s
 * for one silent TCP connection). Requests in flight keep their connections until they end or the grace period
 * does.
 *
 * Requests are counted on the sockets that carry them: the TCP socket, or with TLS the TLS socket. A TLS server's
 * TCP connection that has not sent a byte (no handshake begun) is closed as well, and one whose handshake ends
 * while the server closes is closed then.
 */
export function closeUnusedConnectionsOnClose(app: App): void {
  const server = app.server;
  const requests = new Map<Socket, number>();
  const unstarted = new Set<Socket>();
  let closing = false;
  // what was written goes out first (an answer that just ended may still be buffered), then the socket goes
  const release = (socket: Socket) => {
    if (socket.writableFinished) return void socket.destroy();
    socket.once('finish', () => socket.destroy());
    socket.end();
  };
  const track = (socket: Socket) => {
    if (closing) return release(socket);
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
  };
  if (server instanceof TlsServer) {
    server.on('secureConnection', track);
    server.on('connection', (socket: Socket) => {
      unstarted.add(socket);
      socket.once('close', () => unstarted.delete(socket));
    });
  } else server.on('connection', track);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const running = requests.get(socket);
    // a socket not tracked came in while the server closes: it is being released already
    if (running === undefined) return;
    requests.set(socket, running + 1);
    response.once('close', () => {
      const count = requests.get(socket);
      if (count === undefined) return;
      requests.set(socket, count - 1);
      if (closing && count === 1) release(socket);
    });
  });
  // preClose runs just before fastify closes the listener; a tick later no connection can come in any more
  app.addHook('preClose', (done) => {
    closing = true;
    setImmediate(() => {
      for (const [socket, count] of requests) if (count === 0) release(socket);
      for (const socket of unstarted) if (socket.bytesRead === 0) socket.destroy();
    });
    done();
  });
}
