import { api } from '../../api/client.js';
import type { RunnerJson } from '../../api/types.js';
import { Pager } from '../../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatAgo } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { useEvery } from '../../lib/use-every.js';
import { setQuery, useLocation } from '../../router.js';

const PER_PAGE = 50;

/** The badge of a runner's state: busy and seen are good news, offline is not. */
const STATE_CLASS: Record<RunnerJson['state'], string> = {
  running: 'public',
  idle: '',
  offline: 'alert',
  archived: 'private',
};

/**
 * The runners the caller manages (every one for server administrators): state, the job each runs and when it
 * last asked for a job or sent a heartbeat. Refreshed every 5 seconds.
 */
export function Runners() {
  const { query } = useLocation();
  const page = Number(query.get('page') ?? '1') || 1;
  const archived = query.get('archived') === 'true';
  const list = useApi(
    (signal) => api.list<RunnerJson>('/runners', { per_page: PER_PAGE, page, archived }, signal),
    [page, archived],
  );
  useEvery(list.reload, 5000);
  return (
    <section>
      <PageHeader title="Runners">
        <button
          type="button"
          class="link"
          onClick={() => setQuery(new URLSearchParams(archived ? {} : { archived: 'true' }))}
        >
          {archived ? 'Show active runners' : 'Show archived runners'}
        </button>
      </PageHeader>
      <p class="muted">
        Dedicated machines that run the jobs of <code>benchtrack run --spec</code>; create one with{' '}
        <code>benchtrack runner create</code> and start it with <code>benchtrack runner up</code>.
      </p>
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title={archived ? 'No archived runners.' : 'No runners yet.'} />
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table aria-label="Runners">
              <thead>
                <tr>
                  <th scope="col">Runner</th>
                  <th scope="col">Specs</th>
                  <th scope="col">State</th>
                  <th scope="col">Current job</th>
                  <th scope="col">Last heartbeat</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((runner) => (
                  <tr key={runner.uuid}>
                    <td>
                      {runner.name} <span class="muted mono">{runner.slug}</span>
                    </td>
                    <td class="mono">{runner.specs.join(', ')}</td>
                    <td>
                      <span class={`badge ${STATE_CLASS[runner.state]}`}>{runner.state}</span>
                    </td>
                    <td class="mono">
                      {runner.job ? (
                        <a href={`/console/projects/${runner.job.project}/jobs/${runner.job.uuid}`}>
                          {runner.job.uuid.slice(0, 8)}
                        </a>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>{runner.last_heartbeat ? formatAgo(runner.last_heartbeat) : 'never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data.total}
            onPage={(p) =>
              setQuery(new URLSearchParams({ page: String(p), ...(archived ? { archived: 'true' } : {}) }))
            }
          />
        </>
      )}
    </section>
  );
}
