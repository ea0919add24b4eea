import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the GitHub REST API (a third party): check runs, issue comments and the pull requests
 * associated with a commit, of one repository, enough for `benchtrack run --github-actions`. Every request is
 * recorded; the check-run and comment bodies are kept as GitHub would keep them, with its 65,535-character limit
 * enforced.
 */
export interface FakeGitHub {
  readonly url: string;
  readonly requests: { method: string; path: string; body: any; authorization?: string }[];
  readonly checkRuns: Map<number, any>;
  /** Comments of every issue; one without `issue` shows on each (other people's comments, for paging). */
  readonly comments: { id: number; body: string; issue?: number }[];
  /** The pull requests associated with each commit (by full hash); none when absent. */
  readonly pulls: Map<string, { number: number; state: string; merged_at: string | null }[]>;
  close(): Promise<void>;
}

const LIMIT = 65_535;

export async function startFakeGitHub(repository: string): Promise<FakeGitHub> {
  const requests: FakeGitHub['requests'] = [];
  const checkRuns = new Map<number, any>();
  const comments: FakeGitHub['comments'] = [];
  const pulls: FakeGitHub['pulls'] = new Map();
  let nextId = 1000;
  const prefix = `/repos/${repository}`;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      body,
      authorization: req.headers.authorization,
    });
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    const tooLong = (value: unknown) => typeof value === 'string' && Buffer.byteLength(value) > LIMIT;
    if (!url.pathname.startsWith(prefix)) return reply(404, { message: 'Not Found' });
    const path = url.pathname.slice(prefix.length);
    if (req.method === 'POST' && path === '/check-runs') {
      const id = nextId++;
      checkRuns.set(id, { id, ...body });
      return reply(201, { id });
    }
    const check = /^\/check-runs\/(\d+)$/.exec(path);
    if (req.method === 'PATCH' && check) {
      if (tooLong(body?.output?.summary))
        return reply(422, { message: `Only ${LIMIT} characters are allowed` });
      const id = Number(check[1]);
      checkRuns.set(id, { ...checkRuns.get(id), ...body });
      return reply(200, checkRuns.get(id));
    }
    const issue = /^\/issues\/(\d+)\/comments$/.exec(path);
    const onIssue = (c: FakeGitHub['comments'][number]) =>
      c.issue === undefined || c.issue === Number(issue?.[1]);
    if (issue && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      return reply(200, comments.filter(onIssue).slice((page - 1) * perPage, page * perPage));
    }
    if (issue && req.method === 'POST') {
      if (tooLong(body?.body)) return reply(422, { message: 'Body is too long' });
      const comment = { id: nextId++, body: body.body as string, issue: Number(issue[1]) };
      comments.push(comment);
      return reply(201, comment);
    }
    const commit = /^\/commits\/([0-9a-f]{40})\/pulls$/.exec(path);
    if (commit && req.method === 'GET') return reply(200, pulls.get(commit[1] as string) ?? []);
    const edit = /^\/issues\/comments\/(\d+)$/.exec(path);
    if (edit && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(edit[1]));
      if (!comment) return reply(404, { message: 'Not Found' });
      comment.body = body.body;
      return reply(200, comment);
    }
    return reply(404, { message: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    checkRuns,
    comments,
    pulls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
