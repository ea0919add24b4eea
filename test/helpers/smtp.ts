import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
  user: string | undefined;
}

/** A real SMTP server on 127.0.0.1 that accepts one user and keeps what it receives. */
export async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'bench' && auth.password === 'relay-secret')
        callback(null, { user: auth.username });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
    logger: false,
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export const smtpConfig = (port: number, extra: object = {}) => ({
  hostname: '127.0.0.1',
  port,
  username: 'bench',
  secret: 'relay-secret',
  from_name: 'Benchtrack',
  from_email: 'bench@example.com',
  ...extra,
});

/** Quoted-printable bodies wrap long lines; undo that to read the link. */
export function body(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}
