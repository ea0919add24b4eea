import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { OrganizationJson, ProjectJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { navigate } from '../../router.js';
import { OrgTabs } from './org-tabs.js';
import { ProjectCard } from '../../components/project-card.js';

/** An organization's projects, and a form for a new one. */
export function Organization({ org }: { org: string }) {
  const organization = useApi(
    (signal) => api.get<OrganizationJson>(`/organizations/${segment(org)}`, {}, signal),
    [org],
  );
  const projects = useApi(
    (signal) =>
      api.list<ProjectJson>(
        `/organizations/${segment(org)}/projects`,
        { per_page: 255, sort: 'name', summary: true },
        signal,
      ),
    [org],
  );
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'private'>('public');
  return (
    <section>
      <PageHeader title={organization.data?.name ?? org} />
      <OrgTabs org={org} />
      <ErrorMessage error={organization.error ?? projects.error} />
      {projects.loading && !projects.data && <Loading />}
      {projects.data?.data.length === 0 && (
        <Empty title="No projects in this organization yet.">
          Create one below, or submit a run with <code>benchtrack run --project NAME</code>.
        </Empty>
      )}
      {projects.data && projects.data.data.length > 0 && (
        <ul class="cards">
          {projects.data.data.map((p) => (
            <ProjectCard key={p.uuid} project={p} console={true} />
          ))}
        </ul>
      )}
      <h2>New project</h2>
      <ActionForm
        submit="Create project"
        label="New project"
        onSubmit={async () => {
          const project = await api.post<ProjectJson>(`/organizations/${segment(org)}/projects`, {
            name,
            visibility,
            ...(url ? { url } : {}),
          });
          navigate(`/console/projects/${segment(project.slug)}/perf`);
        }}
      >
        <Field label="Name">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="URL" hint="Optional: the project's home page or repository">
          <input type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <Field label="Visibility" hint="Public projects can be viewed without logging in">
          <select
            value={visibility}
            onChange={(e) => setVisibility(e.currentTarget.value as 'public' | 'private')}
          >
            <option value="public">Public</option>
            <option value="private">Private</option>
          </select>
        </Field>
      </ActionForm>
    </section>
  );
}
