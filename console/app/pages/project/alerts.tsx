import { useState } from 'preact/hooks';
import { api, listAll } from '../../api/client.js';
import type { AlertJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { plural } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import { ALERT_FILTERS, choices, filterAlerts, groupAlerts, type AlertFilters } from './alert-groups.js';
import { AlertGroupRows, type ChangeStatus } from './alert-rows.js';
import type { ProjectContext } from './context.js';

const STATUSES = [
  ['', 'All'],
  ['active', 'Active'],
  ['dismissed', 'Dismissed'],
] as const;
const FILTER_LABELS = { branch: 'Branch', testbed: 'Testbed', benchmark: 'Benchmark', measure: 'Measure' };

/** What the last dismiss or reactivation changed, so it can be undone. */
interface Change {
  readonly alerts: readonly AlertJson[];
  readonly status: 'active' | 'dismissed';
}

/**
 * Alerts grouped by series (one row per branch, testbed, benchmark and measure, expandable), active series
 * first, filtered by status and dimension (all in the URL); dismiss, reactivate, undo, dismiss all.
 */
export function Alerts({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const filters: AlertFilters = Object.fromEntries(
    ALERT_FILTERS.flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : [])),
  );
  const list = useApi(
    (signal) => listAll<AlertJson>(`${ctx.path}/alerts`, { status }, signal),
    [ctx.path, status],
  );
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [last, setLast] = useState<Change>();
  const active = list.data?.filter((a) => a.status === 'active').length ?? 0;

  const patch = async (alerts: readonly AlertJson[], next: 'active' | 'dismissed') => {
    for (const alert of alerts) await api.patch(`${ctx.path}/alerts/${alert.uuid}`, { status: next });
  };
  const change: ChangeStatus = async (alerts, next) => {
    await patch(alerts, next);
    setLast({ alerts, status: next });
    list.reload();
  };
  const undo = async () => {
    if (!last) return;
    await patch(last.alerts, last.status === 'dismissed' ? 'active' : 'dismissed');
    setLast(undefined);
    list.reload();
  };
  const setParam = (key: string, value: string) => {
    const q = new URLSearchParams(query);
    if (value) q.set(key, value);
    else q.delete(key);
    setQuery(q);
  };

  const shown = list.data ? filterAlerts(list.data, filters) : [];
  const groups = groupAlerts(shown);
  const lastName = last?.alerts[0]?.benchmark.name ?? '';
  return (
    <section>
      <PageHeader title="Alerts">
        {ctx.canEdit && active > 0 && (
          <ActionButton
            class="danger"
            confirm={`Dismiss all ${active} active alerts?`}
            action={async () => {
              const dismissed = list.data!.filter((a) => a.status === 'active');
              await api.patch(`${ctx.path}/alerts`, { status: 'dismissed' });
              setLast({ alerts: dismissed, status: 'dismissed' });
              list.reload();
            }}
          >
            Dismiss all ({active})
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
              onClick={() => setParam('status', value)}
            >
              {label}
            </button>
          ))}
        </div>
        {ALERT_FILTERS.map((kind) => (
          <label key={kind} class="field inline">
            <span class="label">{FILTER_LABELS[kind]}</span>
            <select value={filters[kind] ?? ''} onChange={(e) => setParam(kind, e.currentTarget.value)}>
              <option value="">All</option>
              {choices(list.data ?? [], kind).map((d) => (
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
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && groups.length === 0 && (
        <Empty title={status ? `No ${status} alerts.` : 'No alerts.'}>
          {shown.length < list.data.length
            ? 'None matches the filters: choose All to see the others.'
            : "Alerts are raised when a result crosses a threshold's boundary."}
        </Empty>
      )}
      {groups.length > 0 && (
        <>
          <p class="muted small">
            {plural(shown.length, 'alert')} on {plural(groups.length, 'series', 'series')}
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
        </>
      )}
    </section>
  );
}
