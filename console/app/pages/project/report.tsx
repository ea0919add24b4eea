import { api } from '../../api/client.js';
import type { AlertJson, ReportJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { explorerHref } from '../../perf/selection.js';
import { tabHref, type ProjectContext } from './context.js';

function limitText(alert: AlertJson): string {
  return alert.limit === 'upper' ? 'above the upper limit' : 'below the lower limit';
}

/** One report: every result of every iteration with its boundary, threshold model and alert. */
export function Report({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const loaded = useApi(
    (signal) => api.get<ReportJson>(`${ctx.path}/reports/${uuid}`, {}, signal),
    [ctx.path, uuid],
  );
  const report = loaded.data;
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!report) return <Loading what="Loading the report" />;
  const alerts = new Map((report.alerts ?? []).map((a) => [a.metric.uuid, a]));
  const iterations = report.results ?? [];
  const version = report.branch.head.version;
  const benchmarks = [...new Set(iterations.flat().map((r) => r.benchmark.uuid))];
  const measures = [...new Set(iterations.flat().flatMap((r) => r.measures.map((m) => m.measure.uuid)))];
  const perf = explorerHref(tabHref(ctx, 'perf'), {
    branches: [report.branch.uuid],
    testbeds: [report.testbed.uuid],
    benchmarks: benchmarks.slice(0, 255),
    measures: measures.slice(0, 1),
  });
  return (
    <section>
      <PageHeader title={`Report of ${formatDateTime(report.start_time)}`}>
        {benchmarks.length > 0 && (
          <a class="button" href={perf}>
            Plot in the explorer
          </a>
        )}
      </PageHeader>
      <dl class="facts">
        <dt>Branch</dt>
        <dd>{report.branch.name}</dd>
        <dt>Testbed</dt>
        <dd>{report.testbed.name}</dd>
        <dt>Version</dt>
        <dd class="mono">{version ? `#${version.number} ${version.hash ?? ''}` : '—'}</dd>
        <dt>Ran</dt>
        <dd>
          {formatDateTime(report.start_time)} – {formatDateTime(report.end_time)}
        </dd>
        <dt>Adapter</dt>
        <dd>{report.adapter}</dd>
        <dt>Submitted by</dt>
        <dd>{report.user?.name ?? 'anonymous'}</dd>
      </dl>
      {(report.alerts?.length ?? 0) > 0 && (
        <div class="callout alert" role="note">
          <h2>
            {report.counts.alerts.active} active of {report.counts.alerts.total} alerts
          </h2>
          <ul>
            {report.alerts!.map((a) => (
              <li key={a.uuid}>
                <strong>{a.benchmark.name}</strong> ({a.measure.name}): {formatNumber(a.metric.value)} is{' '}
                {limitText(a)}{' '}
                {formatNumber(a.limit === 'upper' ? a.boundary.upper_limit : a.boundary.lower_limit)} —{' '}
                {a.status}
              </li>
            ))}
          </ul>
          <a href={tabHref(ctx, 'alerts')}>All alerts of the project</a>
        </div>
      )}
      {iterations.length === 0 && <Empty title="This report has no results." />}
      {iterations.map((results, i) => (
        <div key={i}>
          {iterations.length > 1 && <h2>Iteration {i + 1}</h2>}
          <div class="table-wrap">
            <table class="results">
              <thead>
                <tr>
                  <th scope="col">Benchmark</th>
                  <th scope="col">Measure</th>
                  <th scope="col" class="num">
                    Value
                  </th>
                  <th scope="col" class="num">
                    Lower / upper value
                  </th>
                  <th scope="col" class="num">
                    Baseline
                  </th>
                  <th scope="col" class="num">
                    Lower limit
                  </th>
                  <th scope="col" class="num">
                    Upper limit
                  </th>
                  <th scope="col">Threshold</th>
                  <th scope="col">Alert</th>
                </tr>
              </thead>
              <tbody>
                {results.flatMap((result) =>
                  result.measures.map((m) => {
                    const alert = alerts.get(m.metric.uuid);
                    return (
                      <tr key={m.metric.uuid} class={alert?.status === 'active' ? 'row-alert' : undefined}>
                        <td class="wrap">{result.benchmark.name}</td>
                        <td>
                          {m.measure.name} <span class="muted small">{m.measure.units}</span>
                        </td>
                        <td class="num">{formatNumber(m.metric.value)}</td>
                        <td class="num">
                          {m.metric.lower_value === null && m.metric.upper_value === null
                            ? '—'
                            : `${formatNumber(m.metric.lower_value)} / ${formatNumber(m.metric.upper_value)}`}
                        </td>
                        <td class="num">{formatNumber(m.boundary?.baseline)}</td>
                        <td class="num">{formatNumber(m.boundary?.lower_limit)}</td>
                        <td class="num">{formatNumber(m.boundary?.upper_limit)}</td>
                        <td>
                          {m.threshold ? (
                            <a href={`${ctx.base}/thresholds/${m.threshold.uuid}`}>
                              {m.threshold.model.test}
                            </a>
                          ) : (
                            <span class="muted">none</span>
                          )}
                        </td>
                        <td>
                          {alert ? (
                            <span class={`badge ${alert.status === 'active' ? 'alert' : ''}`}>
                              {alert.limit} · {alert.status}
                            </span>
                          ) : (
                            ''
                          )}
                        </td>
                      </tr>
                    );
                  }),
                )}
              </tbody>
            </table>
          </div>
        </div>
      ))}
      <p class="muted mono">
        Report {report.uuid} · version hash {shortHash(version?.hash)}
      </p>
    </section>
  );
}
