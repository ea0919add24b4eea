import { useEffect, useState } from 'preact/hooks';
import { api, request } from '../../api/client.js';
import type { AlertCountsJson, AlertJson, DimensionJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Pager } from '../../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { plural } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import { ALERT_FILTERS, groupAlerts, type AlertFilters } from './alert-groups.js';
import { AlertGroupRows, type ChangeStatus } from './alert-rows.js';
import type { ProjectContext } from './context.js';

const PER_PAGE = 50;
const STATUSES = [
  ['active', 'Active'],
  ['dismissed', 'Dismissed'],
  ['all', 'All'],
] as const;
const FILTER_LABELS = { branch: 'Branch', testbed: 'Testbed', benchmark: 'Benchmark', measure: 'Measure' };
const PATHS = { branch: 'branches', testbed: 'testbeds', benchmark: 'benchmarks', measure: 'measures' };

/** What the last dismiss or reactivation changed, so it can be undone. */
interface Change {
  readonly alerts: readonly AlertJson[];
  readonly status: 'active' | 'dismissed';
}

/** The choices of the dimension filters: the project's branches, testbeds, benchmarks and measures, by name. */
function useFilterChoices(ctx: ProjectContext) {
  return useApi(
    async (signal) =>
      Object.fromEntries(
        await Promise.all(
          ALERT_FILTERS.map(async (kind) => {
            const { data } = await api.list<DimensionJson>(
              `${ctx.path}/${PATHS[kind]}`,
              { per_page: 255, sort: 'name' },
              signal,
            );
            return [kind, data] as const;
          }),
        ),
      ) as Record<(typeof ALERT_FILTERS)[number], DimensionJson[]>,
    [ctx.path],
  );
}

/**
 * Alerts grouped by series (one row per branch, testbed, benchmark and measure, expandable), filtered, sorted and
 * paged by the API (active first, filters in the URL), with each status's count. A dismiss or reactivation shows at
 * once and is rolled back if the API refuses it; **Dismiss all** dismisses what the filters show.
 */
export function Alerts({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const status = STATUSES.find(([value]) => value === query.get('status'))?.[0] ?? 'active';
  const page = Number(query.get('page') ?? '1') || 1;
  const filters: AlertFilters = Object.fromEntries(
    ALERT_FILTERS.flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : [])),
  );
  const key = JSON.stringify(filters);
  const list = useApi(
    (signal) =>
      api.list<AlertJson>(
        `${ctx.path}/alerts`,
        { ...filters, ...(status === 'all' ? {} : { status }), per_page: PER_PAGE, page },
        signal,
      ),
    [ctx.path, status, key, page],
  );
  const counts = useApi(
    (signal) => api.get<AlertCountsJson>(`${ctx.path}/alerts/counts`, filters, signal),
    [ctx.path, key],
  );
  const choices = useFilterChoices(ctx);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [last, setLast] = useState<Change>();
  const [error, setError] = useState<Error>();
  // Statuses shown before the API has answered: set by a dismiss or reactivation, dropped with the next list.
  const [pending, setPending] = useState<ReadonlyMap<string, AlertJson['status']>>(new Map());
  useEffect(() => setPending(new Map()), [list.data]);

  const patch = async (alerts: readonly AlertJson[], next: 'active' | 'dismissed') => {
    for (const alert of alerts) await api.patch(`${ctx.path}/alerts/${alert.uuid}`, { status: next });
  };
  const apply = async (alerts: readonly AlertJson[], next: 'active' | 'dismissed') => {
    setError(undefined);
    setPending((before) => new Map([...before, ...alerts.map((a) => [a.uuid, next] as const)]));
    try {
      await patch(alerts, next);
    } catch (e) {
      // the API refused: every alert of the change shows its stored status again
      setPending((before) => new Map([...before].filter(([uuid]) => !alerts.some((a) => a.uuid === uuid))));
      setError(e instanceof Error ? e : new Error(String(e)));
      list.reload();
      throw e;
    } finally {
      counts.reload();
    }
    list.reload();
  };
  const change: ChangeStatus = async (alerts, next) => {
    setLast({ alerts, status: next });
    await apply(alerts, next).catch(() => setLast(undefined));
  };
  const undo = async () => {
    if (!last) return;
    setLast(undefined);
    await apply(last.alerts, last.status === 'dismissed' ? 'active' : 'dismissed').catch(() => undefined);
  };
  const update = (changes: Record<string, string>) => {
    const q = new URLSearchParams(query);
    for (const [name, value] of Object.entries(changes)) {
      if (value && !(name === 'status' && value === 'active')) q.set(name, value);
      else q.delete(name);
    }
    if (!('page' in changes)) q.delete('page');
    setQuery(q);
  };

  const shown = (list.data?.data ?? [])
    .map((a) => (pending.has(a.uuid) ? { ...a, status: pending.get(a.uuid)! } : a))
    .filter((a) => status === 'all' || a.status === status);
  const groups = groupAlerts(shown);
  const active = counts.data?.active ?? 0;
  const scoped = Object.keys(filters).length > 0;
  const lastName = last?.alerts[0]?.benchmark.name ?? '';
  return (
    <section>
      <PageHeader title="Alerts">
        {ctx.canEdit && active > 0 && (
          <ActionButton
            class="danger"
            confirm={`Dismiss ${scoped ? 'the' : 'all'} ${active} active alerts${scoped ? ' the filters show' : ''}?`}
            action={async () => {
              await request('PATCH', `${ctx.path}/alerts`, { body: { status: 'dismissed' }, query: filters });
              setLast(undefined);
              list.reload();
              counts.reload();
            }}
          >
            {scoped ? `Dismiss these (${active})` : `Dismiss all (${active})`}
          </ActionButton>
        )}
      </PageHeader>
      <div class="toolbar">
        <div class="segmented" role="group" aria-label="Show alerts">
          {STATUSES.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={status === value}
              onClick={() => update({ status: value })}
            >
              {label}
              {counts.data && (
                <span class="count" data-testid={`count-${value}`}>
                  {' '}
                  {(value === 'all'
                    ? counts.data.active + counts.data.dismissed + counts.data.silenced
                    : counts.data[value]
                  ).toLocaleString()}
                </span>
              )}
            </button>
          ))}
        </div>
        {ALERT_FILTERS.map((kind) => (
          <label key={kind} class="field inline">
            <span class="label">{FILTER_LABELS[kind]}</span>
            <select value={filters[kind] ?? ''} onChange={(e) => update({ [kind]: e.currentTarget.value })}>
              <option value="">All</option>
              {choices.data?.[kind].map((d) => (
                <option key={d.uuid} value={d.uuid}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {last && (
        <p class="notice" role="status">
          <span>
            {last.status === 'dismissed' ? 'Dismissed' : 'Reactivated'}{' '}
            {last.alerts.length === 1 ? `the alert on ${lastName}` : plural(last.alerts.length, 'alert')}.
          </span>
          <ActionButton action={undo}>Undo</ActionButton>
        </p>
      )}
      <ErrorMessage error={error ?? list.error} />
      {list.loading && !list.data && <Loading what="Loading the alerts" />}
      {list.data && groups.length === 0 && (
        <Empty title={status === 'all' ? 'No alerts.' : `No ${status} alerts.`}>
          {scoped || status !== 'all'
            ? 'None matches the filters: choose All to see the others.'
            : "Alerts are raised when a result crosses a threshold's boundary."}
        </Empty>
      )}
      {groups.length > 0 && (
        <>
          <p class="muted small">
            {plural(list.data?.total ?? shown.length, 'alert')}
            {list.data && list.data.total <= PER_PAGE && ` on ${plural(groups.length, 'series', 'series')}`}
          </p>
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Benchmark</th>
                  <th scope="col">Measure</th>
                  <th scope="col">Branch · testbed</th>
                  <th scope="col">Ran</th>
                  <th scope="col">Commit</th>
                  <th scope="col" class="num">
                    Value
                  </th>
                  <th scope="col" class="num">
                    From baseline
                  </th>
                  <th scope="col" class="num">
                    Limit
                  </th>
                  <th scope="col">Status</th>
                  {ctx.canEdit && (
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {groups.map((group) => (
                  <AlertGroupRows
                    key={group.key}
                    ctx={ctx}
                    group={group}
                    open={open.has(group.key)}
                    onToggle={() => {
                      const next = new Set(open);
                      if (!next.delete(group.key)) next.add(group.key);
                      setOpen(next);
                    }}
                    change={ctx.canEdit ? change : undefined}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data?.total ?? 0}
            onPage={(p) => update({ page: String(p) })}
          />
        </>
      )}
    </section>
  );
}
