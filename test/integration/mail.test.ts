import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { body, smtpConfig, startSmtp } from '../helpers/smtp.js';

let t: TestApp | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
afterEach(async () => {
  await t?.close();
  await smtp?.close();
  t = smtp = undefined;
});

describe('mail through SMTP', () => {
  it('sends the login link through the relay with the configured sender, and the link works', async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    t = await createTestApp({ smtp: smtpConfig(smtp.port, { starttls: false }) });
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Mail User', email: 'mail.user@example.com', i_agree: true },
    });
    expect(signup.statusCode).toBe(202);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail).toMatchObject({ from: 'bench@example.com', to: ['mail.user@example.com'], user: 'bench' });
    expect(mail?.raw).toContain('From: Benchtrack <bench@example.com>');
    expect(mail?.raw).toContain('Subject: Your Benchtrack login link');
    const token = /auth\/confirm\?token=([\w.-]+)/.exec(body(mail?.raw ?? ''))?.[1];
    const confirm = await t.app.inject({ method: 'POST', url: '/v0/auth/confirm', payload: { token } });
    expect(confirm.statusCode).toBe(200);
    expect(t.logText()).not.toContain('e-mail written to the log');
  });

  it('uses STARTTLS, accepting a self-signed relay only with insecure_host', async () => {
    const pem = await generate([{ name: 'commonName', value: 'relay.invalid' }], {
      keySize: 2048,
      algorithm: 'sha256',
    });
    smtp = await startSmtp({ key: pem.private, cert: pem.cert });
    t = await createTestApp({ smtp: smtpConfig(smtp.port, { starttls: true, insecure_host: true }) });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Tls User', email: 'tls@example.com', i_agree: true },
    });
    expect(ok.statusCode).toBe(202);
    expect(smtp.received.map((m) => m.to)).toEqual([['tls@example.com']]);
    await t.close();

    t = await createTestApp({ smtp: smtpConfig(smtp.port, { starttls: true, insecure_host: false }) });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Tls User', email: 'tls@example.com', i_agree: true },
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json().message).toBe(
      'the login e-mail could not be sent (mail relay failed); your account exists: log in again later to get a new link',
    );
    expect(smtp.received).toHaveLength(1);
    expect(t.logText()).toContain('"msg":"e-mail not sent"');
  });

  it('never logs the relay secret', async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    t = await createTestApp({
      smtp: smtpConfig(smtp.port, { starttls: false, secret: 'wrong-relay-secret' }),
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Wrong Secret', email: 'ws@example.com', i_agree: true },
    });
    expect(response.statusCode).toBe(503);
    expect(t.logText()).not.toContain('wrong-relay-secret');
  });
});
