import { api } from '../../api/client.js';
import type { AlertJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Pager } from '../../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';

const PER_PAGE = 50;
const STATUSES = [
  ['', 'All'],
  ['active', 'Active'],
  ['dismissed', 'Dismissed'],
] as const;

/** Alerts, active first; dismiss, dismiss all, reactivate (spec: States and transitions). */
export function Alerts({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const page = Number(query.get('page') ?? '1') || 1;
  const list = useApi(
    (signal) => api.list<AlertJson>(`${ctx.path}/alerts`, { per_page: PER_PAGE, page, status }, signal),
    [ctx.path, status, page],
  );
  const active = useApi(
    (signal) =>
      api
        .list<AlertJson>(`${ctx.path}/alerts`, { per_page: 1, status: 'active' }, signal)
        .then((r) => r.total),
    [ctx.path, list.data],
  );
  const change = (alert: AlertJson, next: 'active' | 'dismissed') => async () => {
    await api.patch(`${ctx.path}/alerts/${alert.uuid}`, { status: next });
    list.reload();
  };
  const show = (next: string) => {
    const q = new URLSearchParams();
    if (next) q.set('status', next);
    setQuery(q);
  };
  return (
    <section>
      <PageHeader title="Alerts">
        {ctx.canEdit && (active.data ?? 0) > 0 && (
          <ActionButton
            class="danger"
            confirm={`Dismiss all ${active.data} active alerts?`}
            action={async () => {
              await api.patch(`${ctx.path}/alerts`, { status: 'dismissed' });
              list.reload();
            }}
          >
            Dismiss all ({active.data})
          </ActionButton>
        )}
      </PageHeader>
      <div class="segmented" role="group" aria-label="Show alerts">
        {STATUSES.map(([value, label]) => (
          <button key={value} type="button" aria-pressed={status === value} onClick={() => show(value)}>
            {label}
          </button>
        ))}
      </div>
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title={status ? `No ${status} alerts.` : 'No alerts.'}>
          Alerts are raised when a result crosses a threshold's boundary.
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Raised</th>
                  <th scope="col">Benchmark</th>
                  <th scope="col">Measure</th>
                  <th scope="col">Branch · testbed</th>
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
                {list.data.data.map((a) => (
                  <tr key={a.uuid} class={a.status === 'active' ? 'row-alert' : undefined}>
                    <td>
                      <a href={`${ctx.base}/reports/${a.report}`}>{formatDateTime(a.created)}</a>
                    </td>
                    <td class="wrap">
                      <a href={`${ctx.base}/alerts/${a.uuid}`}>{a.benchmark.name}</a>
                    </td>
                    <td>{a.measure.name}</td>
                    <td>
                      {a.threshold.branch.name} · {a.threshold.testbed.name}
                    </td>
                    <td class="num">{formatNumber(a.metric.value)}</td>
                    <td class="num">
                      {a.limit === 'upper' ? '> ' : '< '}
                      {formatNumber(a.limit === 'upper' ? a.boundary.upper_limit : a.boundary.lower_limit)}
                    </td>
                    <td>
                      <span class={`badge ${a.status === 'active' ? 'alert' : ''}`}>{a.status}</span>
                    </td>
                    {ctx.canEdit && (
                      <td>
                        {a.status === 'active' ? (
                          <ActionButton
                            label={`Dismiss the alert on ${a.benchmark.name}`}
                            action={change(a, 'dismissed')}
                          >
                            Dismiss
                          </ActionButton>
                        ) : (
                          <ActionButton
                            label={`Reactivate the alert on ${a.benchmark.name}`}
                            action={change(a, 'active')}
                          >
                            Reactivate
                          </ActionButton>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data.total}
            onPage={(p) => {
              const q = new URLSearchParams(query);
              q.set('page', String(p));
              setQuery(q);
            }}
          />
        </>
      )}
    </section>
  );
}
