import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { OrganizationJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { navigate } from '../../router.js';

export function Organizations() {
  const list = useApi(
    (signal) => api.list<OrganizationJson>('/organizations', { per_page: 255, sort: 'name' }, signal),
    [],
  );
  const [name, setName] = useState('');
  return (
    <section>
      <PageHeader title="Organizations" />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty title="You are in no organization yet.">Create one below.</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <ul class="cards">
          {list.data.data.map((org) => (
            <li key={org.uuid} class="card">
              <a class="card-title" href={`/console/organizations/${segment(org.slug)}`}>
                {org.name}
              </a>
              <p class="muted">{org.slug}</p>
            </li>
          ))}
        </ul>
      )}
      <h2>New organization</h2>
      <ActionForm
        submit="Create organization"
        label="New organization"
        onSubmit={async () => {
          const org = await api.post<OrganizationJson>('/organizations', { name });
          navigate(`/console/organizations/${segment(org.slug)}`);
        }}
      >
        <Field label="Name">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
      </ActionForm>
    </section>
  );
}
