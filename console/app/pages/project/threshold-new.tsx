import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { DimensionJson, ThresholdJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { ErrorMessage, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { navigate } from '../../router.js';
import type { ProjectContext } from './context.js';
import { EMPTY_MODEL, modelBody, ModelFields, type ModelDraft } from './model-fields.js';

export function ThresholdNew({ ctx }: { ctx: ProjectContext }) {
  const options = useApi(
    async (signal) => {
      const get = (kind: string) =>
        api
          .list<DimensionJson>(`${ctx.path}/${kind}`, { per_page: 255, sort: 'name' }, signal)
          .then((r) => r.data);
      const [branches, testbeds, measures] = await Promise.all([
        get('branches'),
        get('testbeds'),
        get('measures'),
      ]);
      return { branches, testbeds, measures };
    },
    [ctx.path],
  );
  const [choice, setChoice] = useState({ branch: '', testbed: '', measure: '' });
  const [draft, setDraft] = useState<ModelDraft>(EMPTY_MODEL);
  const select = (key: keyof typeof choice, label: string, items: DimensionJson[] | undefined) => (
    <Field label={label}>
      <select
        required
        value={choice[key]}
        onChange={(e) => setChoice({ ...choice, [key]: e.currentTarget.value })}
      >
        <option value="">Choose…</option>
        {items?.map((item) => (
          <option key={item.uuid} value={item.uuid}>
            {item.name}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <section>
      <PageHeader title="Add a threshold" />
      <ErrorMessage error={options.error} />
      <ActionForm
        submit="Create threshold"
        label="Add a threshold"
        onSubmit={async () => {
          const threshold = await api.post<ThresholdJson>(`${ctx.path}/thresholds`, {
            ...choice,
            ...modelBody(draft),
          });
          navigate(`${ctx.base}/thresholds/${threshold.uuid}`);
        }}
      >
        <div class="row">
          {select('branch', 'Branch', options.data?.branches)}
          {select('testbed', 'Testbed', options.data?.testbeds)}
          {select('measure', 'Measure', options.data?.measures)}
        </div>
        <ModelFields draft={draft} onChange={setDraft} />
      </ActionForm>
    </section>
  );
}
