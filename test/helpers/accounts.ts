import { expect } from 'vitest';
import type { TestApp } from './app.js';

export interface LoggedMail {
  readonly to: string;
  readonly subject: string;
  readonly link?: string;
  readonly text: string;
}

export interface Session {
  readonly token: string;
  readonly user: { uuid: string; slug: string; email: string; admin: boolean; name: string };
}

/** E-mails the server wrote to its log (no SMTP relay), oldest first. */
export function mailsTo(t: TestApp, to: string): LoggedMail[] {
  return t
    .logText()
    .split('\n')
    .filter((line) => line.includes('"mail"'))
    .map((line) => (JSON.parse(line) as { mail: LoggedMail }).mail)
    .filter((mail) => mail.to === to.toLowerCase());
}

export function lastLinkTo(t: TestApp, to: string): URL {
  const link = mailsTo(t, to).at(-1)?.link;
  if (!link) throw new Error(`no e-mail with a link to ${to} in the log`);
  return new URL(link);
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** Signs up through the API, reads the link from the log, confirms it, and returns the session. */
export async function signUp(t: TestApp, name: string, email: string): Promise<Session> {
  const signup = await t.app.inject({
    method: 'POST',
    url: '/v0/auth/signup',
    payload: { name, email, i_agree: true },
  });
  expect(signup.statusCode, signup.body).toBe(202);
  return confirmLink(t, email);
}

export async function logIn(t: TestApp, email: string): Promise<Session> {
  const login = await t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email } });
  expect(login.statusCode, login.body).toBe(202);
  return confirmLink(t, email);
}

async function confirmLink(t: TestApp, email: string): Promise<Session> {
  const token = lastLinkTo(t, email).searchParams.get('token');
  const confirm = await t.app.inject({ method: 'POST', url: '/v0/auth/confirm', payload: { token } });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return confirm.json() as Session;
}

/** Creates a project in the caller's organization. */
export async function createProject(
  t: TestApp,
  session: Session,
  organization: string,
  body: Record<string, unknown>,
): Promise<{ uuid: string; slug: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/organizations/${organization}/projects`,
    headers: bearer(session.token),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
