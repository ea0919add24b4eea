import { api } from '../../api/client.js';
import type { DimensionJson, ReportJson } from '../../api/types.js';
import { Pager } from '../../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';
import { DimensionLink } from '../../components/dimension-link.js';

const PER_PAGE = 25;

function dayStart(date: string): number | undefined {
  return date ? Date.parse(`${date}T00:00:00`) : undefined;
}
function dayEnd(date: string): number | undefined {
  return date ? Date.parse(`${date}T23:59:59.999`) : undefined;
}

/** A select over a dimension list (branch or testbed filter). */
function DimensionSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: DimensionJson[] | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label class="field inline">
      <span class="label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">All</option>
        {options?.map((o) => (
          <option key={o.uuid} value={o.uuid}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Reports, newest first, filtered by branch, testbed and dates (all in the URL). */
export function Reports({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const branch = query.get('branch') ?? '';
  const testbed = query.get('testbed') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const page = Number(query.get('page') ?? '1') || 1;
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setQuery(next);
  };
  const filters = useApi(
    async (signal) => {
      const [branches, testbeds] = await Promise.all([
        api.list<DimensionJson>(`${ctx.path}/branches`, { per_page: 255, sort: 'name' }, signal),
        api.list<DimensionJson>(`${ctx.path}/testbeds`, { per_page: 255, sort: 'name' }, signal),
      ]);
      return { branches: branches.data, testbeds: testbeds.data };
    },
    [ctx.path],
  );
  const list = useApi(
    (signal) =>
      api.list<ReportJson>(
        `${ctx.path}/reports`,
        { per_page: PER_PAGE, page, branch, testbed, start_time: dayStart(from), end_time: dayEnd(to) },
        signal,
      ),
    [ctx.path, branch, testbed, from, to, page],
  );
  const filtered = Boolean(branch || testbed || from || to);
  return (
    <section>
      <PageHeader title="Reports" />
      <form class="toolbar" aria-label="Filter reports" onSubmit={(e) => e.preventDefault()}>
        <DimensionSelect
          label="Branch"
          options={filters.data?.branches}
          value={branch}
          onChange={(v) => update({ branch: v })}
        />
        <DimensionSelect
          label="Testbed"
          options={filters.data?.testbeds}
          value={testbed}
          onChange={(v) => update({ testbed: v })}
        />
        <label class="field inline">
          <span class="label">From</span>
          <input type="date" value={from} onChange={(e) => update({ from: e.currentTarget.value })} />
        </label>
        <label class="field inline">
          <span class="label">To</span>
          <input type="date" value={to} onChange={(e) => update({ to: e.currentTarget.value })} />
        </label>
        {filtered && (
          <button type="button" class="link" onClick={() => setQuery(new URLSearchParams())}>
            Clear filters
          </button>
        )}
      </form>
      <ErrorMessage error={list.error ?? filters.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title={filtered ? 'No report matches these filters.' : 'No reports yet.'}>
          {!filtered && (
            <>
              Submit one with <code>benchtrack run --project {ctx.project.slug} …</code>
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Branch</th>
                  <th scope="col">Testbed</th>
                  <th scope="col">Version</th>
                  <th scope="col" class="num">
                    Benchmarks
                  </th>
                  <th scope="col" class="num">
                    Alerts
                  </th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((r) => {
                  const version = r.branch.head.version;
                  return (
                    <tr key={r.uuid}>
                      <td>
                        <a href={`${ctx.base}/reports/${r.uuid}`}>{formatDateTime(r.start_time)}</a>
                      </td>
                      <td>
                        <DimensionLink ctx={ctx} kind="branches" of={r.branch} />
                      </td>
                      <td>
                        <DimensionLink ctx={ctx} kind="testbeds" of={r.testbed} />
                      </td>
                      <td class="mono">{version ? `#${version.number} ${shortHash(version.hash)}` : '—'}</td>
                      <td class="num">{r.counts.results[0]?.benchmarks ?? 0}</td>
                      <td class="num">
                        {r.counts.alerts.active > 0 ? (
                          <span class="badge alert">{r.counts.alerts.active} active</span>
                        ) : (
                          r.counts.alerts.total
                        )}
                      </td>
                      <td>{r.user?.name ?? 'anonymous'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data.total}
            onPage={(p) => update({ page: String(p) })}
          />
        </>
      )}
    </section>
  );
}
