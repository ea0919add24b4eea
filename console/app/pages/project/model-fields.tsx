import { Field } from '../../components/form.js';

/** Threshold models the API knows (reference 2.1 ModelTest), with what their boundaries mean. */
export const MODEL_TESTS = [
  ['t_test', "Student's t-test", 'confidence level in [0.5, 1), e.g. 0.99'],
  ['z_score', 'z-score', 'confidence level in [0.5, 1), e.g. 0.99'],
  ['log_normal', 'log-normal', 'confidence level in [0.5, 1), e.g. 0.99'],
  ['iqr', 'interquartile range', 'multiplier of the IQR, e.g. 3'],
  ['delta_iqr', 'delta interquartile range', 'multiplier of the delta IQR, e.g. 3'],
  ['percentage', 'percentage', 'fraction of the baseline, e.g. 0.1 for 10 %'],
  ['static', 'static', 'the limit itself, in the units of the measure'],
] as const;

export interface ModelDraft {
  test: string;
  min_sample_size: string;
  max_sample_size: string;
  window: string;
  lower_boundary: string;
  upper_boundary: string;
}

export const EMPTY_MODEL: ModelDraft = {
  test: 't_test',
  min_sample_size: '',
  max_sample_size: '64',
  window: '',
  lower_boundary: '',
  upper_boundary: '0.99',
};

/** The draft as the API wants it: numbers, and absent fields left out. */
export function modelBody(draft: ModelDraft): Record<string, string | number> {
  const body: Record<string, string | number> = { test: draft.test };
  for (const key of [
    'min_sample_size',
    'max_sample_size',
    'window',
    'lower_boundary',
    'upper_boundary',
  ] as const) {
    if (draft[key].trim() !== '') body[key] = Number(draft[key]);
  }
  return body;
}

export function ModelFields({
  draft,
  onChange,
}: {
  draft: ModelDraft;
  onChange: (draft: ModelDraft) => void;
}) {
  const set = (key: keyof ModelDraft) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    onChange({ ...draft, [key]: e.currentTarget.value });
  const hint = MODEL_TESTS.find(([id]) => id === draft.test)?.[2];
  return (
    <>
      <Field label="Model">
        <select value={draft.test} onChange={set('test')}>
          {MODEL_TESTS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <div class="row">
        <Field label="Minimum sample size" hint="At least 2; empty for the model's default">
          <input type="number" min="2" value={draft.min_sample_size} onInput={set('min_sample_size')} />
        </Field>
        <Field label="Maximum sample size" hint="At least 2">
          <input type="number" min="2" value={draft.max_sample_size} onInput={set('max_sample_size')} />
        </Field>
        <Field label="Window (seconds)" hint="Only results this recent; empty for all">
          <input type="number" min="1" value={draft.window} onInput={set('window')} />
        </Field>
      </div>
      <div class="row">
        <Field label="Lower boundary" hint={`Empty: no lower limit. ${hint ?? ''}`}>
          <input type="number" step="any" value={draft.lower_boundary} onInput={set('lower_boundary')} />
        </Field>
        <Field label="Upper boundary" hint={`Empty: no upper limit. ${hint ?? ''}`}>
          <input type="number" step="any" value={draft.upper_boundary} onInput={set('upper_boundary')} />
        </Field>
      </div>
    </>
  );
}
