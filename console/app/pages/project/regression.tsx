import { DimensionLink } from '../../components/dimension-link.js';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { MemberJson, RegressionEventJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, plural } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { tabHref, type ProjectContext } from './context.js';
import { RegressionPlots } from './regression-plot.js';
import {
  commitUrl,
  compareUrl,
  kindText,
  rangeText,
  statusClass,
  TRIAGE,
  triageKey,
  typing,
  versionText,
  type Regression,
} from './regression-text.js';

/**
 * One regression (the CLI and the Regressions page link here): what moved between which commits, with compare
 * links when the project's URL is a GitHub or GitLab repository; a small plot of every series around the change;
 * triage for members (the same keys as the list: a, e, i, f, u); and the history of what the service and people did.
 */
export function RegressionPage({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const path = `${ctx.path}/regressions/${uuid}`;
  const loaded = useApi(
    async (signal) => {
      const [regression, history] = await Promise.all([
        api.get<Regression>(path, {}, signal),
        api.list<RegressionEventJson>(`${path}/history`, {}, signal),
      ]);
      return { regression, history: history.data };
    },
    [path],
  );
  const [error, setError] = useState<Error>();
  const r = loaded.data?.regression;
  if (loaded.error && !r) return <ErrorMessage error={loaded.error} />;
  if (!r) return <Loading what="Loading the regression" />;
  const compare = compareUrl(ctx.project.url, r.last_good?.hash, r.first_bad.hash);
  const commit = commitUrl(ctx.project.url, r.first_bad.hash);
  const onKey = (event: KeyboardEvent) => {
    const to = triageKey(event);
    if (!ctx.canEdit || !to || typing(event) || to === r.status) return;
    event.preventDefault();
    setError(undefined);
    api
      .patch(path, { status: to })
      .then(loaded.reload, (e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
  };
  return (
    <section class="regression" onKeyDown={onKey} tabIndex={-1}>
      <PageHeader
        title={`${kindText(r).slice(2)}: ${plural(r.series.length, 'series', 'series')} at version ${r.first_bad.number}`}
      />
      <ErrorMessage error={error} />
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={statusClass(r.status)} data-testid="regression-status">
            {r.status}
          </span>
          {r.reason && <span class="muted"> — {r.reason}</span>}
        </dd>
        <dt>Commits</dt>
        <dd class="mono">
          {rangeText(r)}
          {compare && (
            <>
              {' '}
              <a href={compare} rel="noopener noreferrer" target="_blank">
                Compare {versionText(r.last_good)}…{versionText(r.first_bad)}
              </a>
            </>
          )}
          {commit && (
            <>
              {' '}
              ·{' '}
              <a href={commit} rel="noopener noreferrer" target="_blank">
                first bad commit
              </a>
            </>
          )}
        </dd>
        <dt>Branch · testbed</dt>
        <dd>
          <DimensionLink ctx={ctx} kind="branches" of={r.branch} /> ·{' '}
          <DimensionLink ctx={ctx} kind="testbeds" of={r.testbed} />
        </dd>
        {r.reports.first_bad && (
          <>
            <dt>Reports</dt>
            <dd>
              {r.reports.last_good && (
                <>
                  <a href={`${ctx.base}/reports/${r.reports.last_good.uuid}`}>last good</a> ·{' '}
                </>
              )}
              <a href={`${ctx.base}/reports/${r.reports.first_bad.uuid}`}>first bad</a> (
              {formatDateTime(r.reports.first_bad.start_time)})
            </dd>
          </>
        )}
        {r.fixed_by && (
          <>
            <dt>Fixed by</dt>
            <dd class="mono">{versionText(r.fixed_by)}</dd>
          </>
        )}
        <dt>Assignee</dt>
        <dd>{r.assignee?.name ?? 'nobody'}</dd>
        {r.issue_url && (
          <>
            <dt>Issue</dt>
            <dd>
              <a href={r.issue_url} rel="noopener noreferrer" target="_blank">
                {r.issue_url}
              </a>
            </dd>
          </>
        )}
        {r.note && (
          <>
            <dt>Note</dt>
            <dd class="note">{r.note}</dd>
          </>
        )}
      </dl>
      {ctx.canEdit && <Triage key={r.modified} ctx={ctx} regression={r} onDone={loaded.reload} />}
      <h2>Series</h2>
      <RegressionPlots ctx={ctx} regression={r} />
      <History events={loaded.data?.history ?? []} />
      <p>
        <a href={tabHref(ctx, 'regressions')}>All regressions</a>
      </p>
    </section>
  );
}

/** Status, note, issue URL and assignee, as a member sets them. */
function Triage({
  ctx,
  regression,
  onDone,
}: {
  ctx: ProjectContext;
  regression: Regression;
  onDone: () => void;
}) {
  const members = useApi(
    (signal) =>
      api
        .list<MemberJson>(`/organizations/${ctx.project.organization}/members`, { per_page: 255 }, signal)
        .then((r) => r.data),
    [ctx.project.organization],
  );
  const [status, setStatus] = useState<string>(regression.status);
  const [note, setNote] = useState(regression.note ?? '');
  const [issue, setIssue] = useState(regression.issue_url ?? '');
  const [assignee, setAssignee] = useState(regression.assignee?.slug ?? '');
  return (
    <ActionForm
      label="Triage"
      submit="Save"
      class="triage"
      onSubmit={async () => {
        await api.patch(`${ctx.path}/regressions/${regression.uuid}`, {
          ...(status !== regression.status ? { status } : {}),
          note: note.trim() === '' ? null : note,
          issue_url: issue.trim() === '' ? null : issue.trim(),
          assignee: assignee === '' ? null : assignee,
        });
        onDone();
      }}
    >
      <p class="muted small keys">
        Keys on this page: {TRIAGE.map((t) => `${t.key} ${t.status}`).join(', ')}
      </p>
      <div class="row">
        <Field label="Status">
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {regression.status === 'suspected' && <option value="suspected">suspected</option>}
            {TRIAGE.map(({ status: value }) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Assignee">
          <select value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
            <option value="">Nobody</option>
            {members.data?.map((m) => (
              <option key={m.uuid} value={m.slug}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Issue" hint="A link to the issue tracking it (http or https)">
          <input type="url" value={issue} onInput={(e) => setIssue(e.currentTarget.value)} />
        </Field>
      </div>
      <Field label="Note">
        <textarea rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </Field>
    </ActionForm>
  );
}

/** What happened to the regression, oldest first: who or what changed it, and why. */
function History({ events }: { events: readonly RegressionEventJson[] }) {
  if (events.length === 0) return null;
  return (
    <>
      <h2>History</h2>
      <ol class="history" data-testid="regression-history">
        {events.map((e, i) => {
          const fields = Object.keys(e.changes ?? {}).filter((k) => k !== 'status');
          return (
            <li key={i}>
              <span class="muted">{formatDateTime(e.created)}</span>{' '}
              {e.previous_status === null ? (
                <>opened as {e.status}</>
              ) : e.previous_status !== e.status ? (
                <>
                  {e.previous_status} → <strong>{e.status}</strong>
                </>
              ) : (
                <>{fields.length > 0 ? `set ${fields.join(', ')}` : e.status}</>
              )}{' '}
              <span class="muted">by {e.user ? e.user.name : 'Benchtrack'}</span>
              {e.reason && <div class="muted small">{e.reason}</div>}
            </li>
          );
        })}
      </ol>
    </>
  );
}
