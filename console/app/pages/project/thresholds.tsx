import { api } from '../../api/client.js';
import type { AlertCountsJson, ModelJson, ThresholdJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import type { ProjectContext } from './context.js';
import { DimensionLink } from '../../components/dimension-link.js';

export function modelSummary(model: ModelJson | null): string {
  if (!model) return 'no model (not tested)';
  const bounds = [
    model.lower_boundary !== null ? `lower ${model.lower_boundary}` : '',
    model.upper_boundary !== null ? `upper ${model.upper_boundary}` : '',
  ].filter(Boolean);
  return `${model.test}${bounds.length ? ` · ${bounds.join(', ')}` : ''}`;
}

/** The sample size rule of a model, in words. */
export function sampleSize(model: Pick<ModelJson, 'min_sample_size' | 'max_sample_size'>): string {
  const { min_sample_size: min, max_sample_size: max } = model;
  if (min === null && max === null) return 'no sample size limits';
  if (min === null) return `at most ${max}`;
  if (max === null) return `at least ${min}`;
  return `${min} to ${max}`;
}

/** Thresholds: one per branch x testbed x measure, each with its current model. */
export function Thresholds({ ctx }: { ctx: ProjectContext }) {
  const list = useApi(
    (signal) => api.list<ThresholdJson>(`${ctx.path}/thresholds`, { per_page: 255 }, signal),
    [ctx.path],
  );
  // each threshold's open alerts, counted by the API (a small answer per threshold, never the alerts themselves)
  const open = useApi(
    async (signal) =>
      new Map(
        await Promise.all(
          (list.data?.data ?? []).map(
            async (t) =>
              [
                t.uuid,
                (
                  await api.get<AlertCountsJson>(
                    `${ctx.path}/alerts/counts`,
                    { branch: t.branch.uuid, testbed: t.testbed.uuid, measure: t.measure.uuid },
                    signal,
                  )
                ).active,
              ] as const,
          ),
        ),
      ),
    [ctx.path, list.data],
  );
  const openCount = (uuid: string) => open.data?.get(uuid) ?? 0;
  return (
    <section>
      <PageHeader title="Thresholds">
        {ctx.canEdit && (
          <a class="button primary" href={`${ctx.base}/thresholds/add`}>
            Add a threshold
          </a>
        )}
      </PageHeader>
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title="No thresholds yet.">
          A threshold tests each new result of a branch, testbed and measure, and raises an alert when it
          crosses a limit.
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Branch</th>
                <th scope="col">Testbed</th>
                <th scope="col">Measure</th>
                <th scope="col">Model</th>
                <th scope="col">Sample size</th>
                <th scope="col" class="num">
                  Open alerts
                </th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((t) => (
                <tr key={t.uuid}>
                  <td>
                    <a href={`${ctx.base}/thresholds/${t.uuid}`}>{t.branch.name}</a>
                  </td>
                  <td>
                    <DimensionLink ctx={ctx} kind="testbeds" of={t.testbed} />
                  </td>
                  <td>{t.measure.name}</td>
                  <td>{modelSummary(t.model)}</td>
                  <td>{t.model ? sampleSize(t.model) : ''}</td>
                  <td class="num">
                    {!open.data?.has(t.uuid) ? (
                      <span class="muted" title={open.error ? 'open alerts could not be loaded' : 'loading'}>
                        {open.error ? '?' : '…'}
                      </span>
                    ) : openCount(t.uuid) > 0 ? (
                      <a
                        class="badge alert"
                        href={`${ctx.base}/alerts?status=active&branch=${t.branch.uuid}&testbed=${t.testbed.uuid}&measure=${t.measure.uuid}`}
                      >
                        {openCount(t.uuid)}
                      </a>
                    ) : (
                      <span class="muted">0</span>
                    )}
                  </td>
                  <td>{formatDateTime(t.modified)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
