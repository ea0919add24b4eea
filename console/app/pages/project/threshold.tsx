import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { ModelJson, ThresholdJson } from '../../api/types.js';
import { ActionButton, ActionForm } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';
import { EMPTY_MODEL, modelBody, ModelFields, type ModelDraft } from './model-fields.js';
import { ThresholdPlot } from './threshold-plot.js';
import { modelSummary, sampleSize } from './thresholds.js';

function draftOf(model: ModelJson | null): ModelDraft {
  if (!model) return EMPTY_MODEL;
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    test: model.test,
    min_sample_size: text(model.min_sample_size),
    max_sample_size: text(model.max_sample_size),
    window: text(model.window),
    lower_boundary: text(model.lower_boundary),
    upper_boundary: text(model.upper_boundary),
  };
}

/** The models this threshold has had, newest first (the 255 newest: more would be a very long page). */
async function modelHistory(
  ctx: ProjectContext,
  threshold: ThresholdJson,
  signal: AbortSignal,
): Promise<ModelJson[]> {
  const page = await api.list<ModelJson>(
    `${ctx.path}/thresholds/${segment(threshold.uuid)}/models`,
    { per_page: 255 },
    signal,
  );
  return page.data;
}

function ModelFacts({ model }: { model: ModelJson }) {
  return (
    <dl class="facts">
      <dt>Model</dt>
      <dd>{model.test}</dd>
      <dt>Sample size</dt>
      <dd>{sampleSize(model)}</dd>
      <dt>Window</dt>
      <dd>{model.window ? formatDuration(model.window) : 'all results'}</dd>
      <dt>Lower boundary</dt>
      <dd>{model.lower_boundary ?? 'none'}</dd>
      <dt>Upper boundary</dt>
      <dd>{model.upper_boundary ?? 'none'}</dd>
      <dt>In use</dt>
      <dd>
        {formatDateTime(model.created)} – {model.replaced ? formatDateTime(model.replaced) : 'now'}
      </dd>
    </dl>
  );
}

/**
 * The form of a new model, its fields filled from the current model from its first render: filled by an effect
 * after it, the form showed a model-less threshold's defaults for a moment, and what was typed into them then was
 * overwritten. A new current model (its own key) starts the form afresh.
 */
function NewModel({ path, model, saved }: { path: string; model: ModelJson | null; saved: () => void }) {
  const [draft, setDraft] = useState<ModelDraft>(() => draftOf(model));
  return (
    <ActionForm
      submit="Save the new model"
      label="New model"
      onSubmit={async () => {
        await api.put(path, modelBody(draft));
        saved();
      }}
    >
      <ModelFields draft={draft} onChange={setDraft} />
    </ActionForm>
  );
}

/** One threshold: its model (or an earlier one, ?model=), a new model, removing the model, the history. */
export function Threshold({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const { query } = useLocation();
  const shown = query.get('model') ?? undefined;
  const path = `${ctx.path}/thresholds/${segment(uuid)}`;
  const loaded = useApi((signal) => api.get<ThresholdJson>(path, { model: shown }, signal), [path, shown]);
  const current = useApi((signal) => api.get<ThresholdJson>(path, {}, signal), [path]);
  const history = useApi(
    (signal) =>
      current.data ? modelHistory(ctx, current.data, signal) : new Promise<ModelJson[]>(() => undefined),
    [current.data],
  );
  const threshold = loaded.data;
  const changed = () => {
    setQuery(new URLSearchParams());
    current.reload();
    loaded.reload();
  };
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!threshold) return <Loading what="Loading the threshold" />;
  const title = `${threshold.branch.name} · ${threshold.testbed.name} · ${threshold.measure.name}`;
  return (
    <section>
      <PageHeader title={`Threshold: ${title}`} />
      {shown && (
        <p class="callout">
          An earlier model. <a href={`${ctx.base}/thresholds/${uuid}`}>Show the current one</a>
        </p>
      )}
      {threshold.model ? (
        <ModelFacts model={threshold.model} />
      ) : (
        <Empty title="No model: results are not tested." />
      )}
      {current.data && <ThresholdPlot ctx={ctx} threshold={current.data} />}
      {ctx.canEdit && !shown && current.data && (
        <>
          <h2>New model</h2>
          <p class="muted">
            A new model replaces the current one from the next report on; the old one stays in the history.
          </p>
          <NewModel
            key={current.data.model?.uuid ?? 'none'}
            path={path}
            model={current.data.model ?? null}
            saved={changed}
          />
          {threshold.model && (
            <div class="spaced">
              <ActionButton
                class="danger"
                confirm="Remove the model? Results are no longer tested until a new one is set."
                action={async () => {
                  await api.put(path, { test: null });
                  changed();
                }}
              >
                Remove the model
              </ActionButton>
            </div>
          )}
        </>
      )}
      <h2>History of models</h2>
      <ErrorMessage error={history.error} />
      {history.loading && <Loading what="Gathering the models" />}
      {!history.loading && history.data?.length === 0 && <Empty title="No model yet." />}
      {history.data && history.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Until</th>
                <th scope="col">Model</th>
                <th scope="col">Sample size</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((m) => (
                <tr
                  key={m.uuid}
                  aria-current={(shown ?? current.data?.model?.uuid) === m.uuid ? 'true' : undefined}
                >
                  <td>
                    <a href={`${ctx.base}/thresholds/${uuid}${m.replaced ? `?model=${m.uuid}` : ''}`}>
                      {formatDateTime(m.created)}
                    </a>
                  </td>
                  <td>{m.replaced ? formatDateTime(m.replaced) : 'current'}</td>
                  <td>{modelSummary(m)}</td>
                  <td>{sampleSize(m)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="muted">
        Listed: the current model and those that tested the last 50 reports of this branch and testbed.
      </p>
    </section>
  );
}
