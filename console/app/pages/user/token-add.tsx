import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { TokenCreatedJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { PageHeader } from '../../components/status.js';
import { CopyButton } from '../../components/copy-button.js';

const LIFETIMES: [string, number | undefined][] = [
  ['30 days', 30 * 86_400],
  ['90 days', 90 * 86_400],
  ['1 year', 365 * 86_400],
  ['No expiry', undefined],
];

/** Adds an API token and shows its secret once: the API never shows it again. */
export function TokenAdd({ user }: { user: string }) {
  const [name, setName] = useState('');
  const [ttl, setTtl] = useState(String(LIFETIMES[2]![1]));
  const [created, setCreated] = useState<TokenCreatedJson>();
  const back = `/console/users/${segment(user)}/tokens`;
  if (created) {
    return (
      <section>
        <PageHeader title="Token created" />
        <div class="card secret">
          <p>
            <strong>Copy the token now: it is shown this once.</strong>
          </p>
          <code class="secret-value" data-testid="token-secret">
            {created.token}
          </code>
          <CopyButton text={created.token} label="Copy token" />
        </div>
        <p>
          <a href={back}>Back to the tokens</a>
        </p>
      </section>
    );
  }
  return (
    <section>
      <PageHeader title="Add an API token" />
      <ActionForm
        submit="Create token"
        label="Add an API token"
        onSubmit={async () => {
          const lifetime = ttl === 'undefined' ? undefined : Number(ttl);
          setCreated(
            await api.post<TokenCreatedJson>(`/users/${segment(user)}/tokens`, {
              name,
              ...(lifetime ? { ttl: lifetime } : {}),
            }),
          );
        }}
      >
        <Field label="Name" hint="Where it is used, e.g. GitHub Actions">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Lifetime">
          <select value={ttl} onChange={(e) => setTtl(e.currentTarget.value)}>
            {LIFETIMES.map(([label, seconds]) => (
              <option key={label} value={String(seconds)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
      <p>
        <a href={back}>Cancel</a>
      </p>
    </section>
  );
}
