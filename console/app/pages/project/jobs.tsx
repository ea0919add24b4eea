import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { JobJson, JobLogJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Pager } from '../../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { useEvery } from '../../lib/use-every.js';
import { setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';

const PER_PAGE = 25;
const STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'] as const;
const ACTIVE = new Set(['queued', 'running']);

/** The badge of a job's state. */
export function JobState({ state }: { state: JobJson['state'] }) {
  const kind = state === 'succeeded' || state === 'running' ? 'public' : state === 'queued' ? '' : 'alert';
  return <span class={`badge ${kind}`}>{state.replace('_', ' ')}</span>;
}

/** A project's jobs (`benchtrack run --spec`), newest first, by state; refreshed while some are still active. */
export function Jobs({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const state = query.get('state') ?? '';
  const page = Number(query.get('page') ?? '1') || 1;
  const list = useApi(
    (signal) => api.list<JobJson>(`${ctx.path}/jobs`, { per_page: PER_PAGE, page, state }, signal),
    [ctx.path, state, page],
  );
  useEvery(list.reload, 3000, list.data?.data.some((job) => ACTIVE.has(job.state)) ?? false);
  return (
    <section>
      <PageHeader title="Jobs" />
      <form class="toolbar" aria-label="Filter jobs" onSubmit={(e) => e.preventDefault()}>
        <label class="field inline">
          <span class="label">State</span>
          <select
            value={state}
            onChange={(e) =>
              setQuery(new URLSearchParams(e.currentTarget.value ? { state: e.currentTarget.value } : {}))
            }
          >
            <option value="">All</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title={state ? 'No job in this state.' : 'No jobs yet.'}>
          {!state && (
            <>
              Queue one for a dedicated runner with{' '}
              <code>benchtrack run --spec &lt;spec&gt; --project {ctx.project.slug} …</code>
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table aria-label="Jobs">
              <thead>
                <tr>
                  <th scope="col">Queued</th>
                  <th scope="col">Spec</th>
                  <th scope="col">State</th>
                  <th scope="col">Command</th>
                  <th scope="col">Commit</th>
                  <th scope="col">Runner</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((job) => (
                  <tr key={job.uuid}>
                    <td>
                      <a href={`${ctx.base}/jobs/${job.uuid}`}>{formatDateTime(job.created)}</a>
                    </td>
                    <td class="mono">{job.spec}</td>
                    <td>
                      <JobState state={job.state} />
                    </td>
                    <td class="mono">{job.command.join(' ')}</td>
                    <td class="mono">{shortHash(job.hash)}</td>
                    <td>{job.runner?.name ?? '—'}</td>
                    <td>{job.user?.name ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data.total}
            onPage={(p) => setQuery(new URLSearchParams({ ...(state ? { state } : {}), page: String(p) }))}
          />
        </>
      )}
    </section>
  );
}

/** The job's log, read piece by piece after the last position, followed while the job is active. */
function useJobLog(ctx: ProjectContext, uuid: string, active: boolean): { text: string; error?: Error } {
  const [text, setText] = useState('');
  const [error, setError] = useState<Error>();
  const position = useRef(0);
  const reading = useRef(false);
  const read = async () => {
    if (reading.current) return;
    reading.current = true;
    try {
      for (;;) {
        const pieces = await api.get<JobLogJson[]>(`${ctx.path}/jobs/${uuid}/log`, {
          after: position.current,
        });
        if (pieces.length > 0) {
          position.current = pieces.at(-1)?.position ?? position.current;
          setText((before) => before + pieces.map((piece) => piece.text).join(''));
        }
        if (pieces.length < 255) break;
      }
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      reading.current = false;
    }
  };
  useEffect(() => {
    position.current = 0;
    setText('');
    void read();
  }, [ctx.path, uuid]);
  useEvery(() => void read(), 2000, active);
  return { text, error };
}

/** One job: what it runs, where, its attempts and runner, its report, and its output. */
export function Job({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const loaded = useApi(
    (signal) => api.get<JobJson>(`${ctx.path}/jobs/${uuid}`, {}, signal),
    [ctx.path, uuid],
  );
  const job = loaded.data;
  const active = job ? ACTIVE.has(job.state) : false;
  useEvery(loaded.reload, 2000, active);
  const log = useJobLog(ctx, uuid, active);
  if (loaded.error && !job) return <ErrorMessage error={loaded.error} />;
  if (!job) return <Loading what="Loading the job" />;
  const cancel = async () => {
    await api.post(`${ctx.path}/jobs/${job.uuid}/cancel`, {});
    loaded.reload();
  };
  return (
    <section>
      <PageHeader title={`Job on ${job.spec}`}>
        {ctx.canEdit && active && (
          <ActionButton action={cancel} confirm="Cancel this job?">
            Cancel
          </ActionButton>
        )}
      </PageHeader>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <JobState state={job.state} />
          {job.reason && <> {job.reason}</>}
        </dd>
        <dt>Command</dt>
        <dd class="mono">{job.command.join(' ')}</dd>
        <dt>Repository · commit</dt>
        <dd class="mono">
          {job.repository} · {job.hash}
        </dd>
        <dt>Branch · testbed</dt>
        <dd>
          {job.branch} · {job.spec}
        </dd>
        <dt>Runner</dt>
        <dd>
          {job.runner
            ? `${job.runner.name} (attempt ${job.attempt})`
            : job.attempt > 0
              ? `none (attempt ${job.attempt} ended)`
              : 'not yet'}
        </dd>
        <dt>Queued</dt>
        <dd>
          {formatDateTime(job.created)} by {job.user?.name ?? '—'}
        </dd>
        {job.started && (
          <>
            <dt>Started</dt>
            <dd>{formatDateTime(job.started)}</dd>
          </>
        )}
        {job.finished && (
          <>
            <dt>Finished</dt>
            <dd>{formatDateTime(job.finished)}</dd>
          </>
        )}
        {job.report && (
          <>
            <dt>Report</dt>
            <dd>
              <a href={`${ctx.base}/reports/${job.report}`}>the report</a>
            </dd>
          </>
        )}
      </dl>
      <h2>Output</h2>
      <ErrorMessage error={log.error} />
      {job.log.dropped > 0 && (
        <p class="muted">
          {job.log.dropped.toLocaleString()} bytes beyond the log limit (1 MiB per job) were not kept.
        </p>
      )}
      {log.text ? (
        <pre class="job-log" aria-label="Job output">
          {log.text}
        </pre>
      ) : (
        <p class="muted">No output yet.</p>
      )}
    </section>
  );
}
