import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { OrganizationJson, ProjectJson, TokenCreatedJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { PageHeader } from '../../components/status.js';
import { CopyButton } from '../../components/copy-button.js';
import { RunCommand } from '../../components/run-command.js';
import { useApi } from '../../lib/use-api.js';
import { useLocation } from '../../router.js';

const LIFETIMES: [string, number | undefined][] = [
  ['30 days', 30 * 86_400],
  ['90 days', 90 * 86_400],
  ['1 year', 365 * 86_400],
  ['No expiry', undefined],
];

/**
 * The project a new token's `benchtrack run` line names: the one the link came from (`?project=`), else the first
 * project of the caller's first organization, else a new project's name.
 */
function useRunProject(): string {
  const { query } = useLocation();
  const given = query.get('project');
  const first = useApi(
    async (signal) => {
      if (given) return given;
      const [org] = (await api.list<OrganizationJson>('/organizations', { per_page: 1 }, signal)).data;
      if (!org) return undefined;
      const path = `/organizations/${segment(org.slug)}/projects`;
      return (await api.list<ProjectJson>(path, { per_page: 1, sort: 'name' }, signal)).data[0]?.slug;
    },
    [given],
  );
  return given ?? first.data ?? 'my-project';
}

/** Adds an API token and shows its secret once (the API never shows it again), with a run line that uses it. */
export function TokenAdd({ user }: { user: string }) {
  const project = useRunProject();
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
        <h2>Submit a run with it</h2>
        <RunCommand project={project} token={created.token} />
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
