import { api } from '../../api/client.js';
import type { ServerStatsJson } from '../../api/types.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';

const COUNTED = ['users', 'organizations', 'projects', 'reports', 'metrics'] as const;
const WIDTH = 600;
const HEIGHT = 120;

/** Metrics per day as bars, the last 30 days, zero days included so the gaps show. */
function VolumePlot({ daily, today }: { daily: ServerStatsJson['daily_metrics']; today: string }) {
  const byDay = new Map(daily.map((d) => [d.day, d.metrics]));
  const end = Date.parse(`${today}T00:00:00Z`);
  const days = Array.from({ length: 30 }, (_, i) =>
    new Date(end - (29 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const max = Math.max(1, ...days.map((day) => byDay.get(day) ?? 0));
  const bar = WIDTH / days.length;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      role="img"
      aria-label={`Metrics per day over the last 30 days, at most ${max}`}
      class="volume-plot"
    >
      {days.map((day, i) => {
        const value = byDay.get(day) ?? 0;
        const height = (value / max) * (HEIGHT - 4);
        return (
          <rect
            key={day}
            x={i * bar + 1}
            y={HEIGHT - height}
            width={bar - 2}
            height={height}
            fill="currentColor"
          >
            <title>{`${day}: ${value} metrics`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

/** Server statistics for administrators: computed by the API from its database, never sent anywhere. */
export function ServerStats() {
  const stats = useApi((signal) => api.get<ServerStatsJson>('/server/stats', {}, signal), []);
  const data = stats.data;
  return (
    <section>
      <PageHeader title="Server statistics" />
      <p class="muted">Computed by this server from its own database; nothing is sent anywhere.</p>
      <ErrorMessage error={stats.error} />
      {stats.loading && !data && <Loading />}
      {data && (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Today</th>
                  <th scope="col">7 days</th>
                  <th scope="col">30 days</th>
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {COUNTED.map((what) => (
                  <tr key={what}>
                    <th scope="row">{what}</th>
                    <td>{data[what].day}</td>
                    <td>{data[what].week}</td>
                    <td>{data[what].month}</td>
                    <td>{data[what].total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Metrics per day</h2>
          <VolumePlot daily={data.daily_metrics} today={data.timestamp.slice(0, 10)} />
          <h2>Most active projects (30 days)</h2>
          {data.top_projects.length === 0 ? (
            <p class="muted">No reports in the last 30 days.</p>
          ) : (
            <ol>
              {data.top_projects.map((p) => (
                <li key={p.uuid}>
                  <a href={`/console/projects/${p.slug}`}>{p.name}</a>: {p.reports} reports
                </li>
              ))}
            </ol>
          )}
          <h2>Daily snapshots</h2>
          <p class="muted">
            {data.snapshots.length} snapshot{data.snapshots.length === 1 ? '' : 's'} kept (plus.stats); the
            last: {data.snapshots.at(-1)?.day ?? 'none yet'}.
          </p>
        </>
      )}
    </section>
  );
}
