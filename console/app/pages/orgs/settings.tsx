import { useEffect, useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { OrganizationJson } from '../../api/types.js';
import { ActionButton, ActionForm, Field } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { navigate } from '../../router.js';
import { OrgTabs } from './org-tabs.js';

export function OrganizationSettings({ org }: { org: string }) {
  const path = `/organizations/${segment(org)}`;
  const organization = useApi((signal) => api.get<OrganizationJson>(path, {}, signal), [org]);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (organization.data) {
      setName(organization.data.name);
      setSlug(organization.data.slug);
    }
  }, [organization.data]);
  return (
    <section>
      <PageHeader title={`${organization.data?.name ?? org}: settings`} />
      <OrgTabs org={org} />
      <ErrorMessage error={organization.error} />
      {!organization.data && organization.loading && <Loading />}
      {organization.data && (
        <>
          <ActionForm
            submit="Save"
            label="Organization settings"
            onSubmit={async () => {
              const updated = await api.patch<OrganizationJson>(path, { name, slug });
              setSaved(true);
              if (updated.slug !== org)
                navigate(`/console/organizations/${segment(updated.slug)}/settings`, { replace: true });
            }}
          >
            <Field label="Name">
              <input
                required
                value={name}
                onInput={(e) => (setName(e.currentTarget.value), setSaved(false))}
              />
            </Field>
            <Field
              label="Slug"
              hint="Used in URLs and by the CLI; at most 64 lower-case letters, digits and hyphens"
            >
              <input
                required
                value={slug}
                onInput={(e) => (setSlug(e.currentTarget.value), setSaved(false))}
              />
            </Field>
          </ActionForm>
          {saved && (
            <p class="success" role="status">
              Saved.
            </p>
          )}
          <h2>Delete</h2>
          <p class="muted">An organization can be deleted once it has no projects.</p>
          <ActionButton
            class="danger"
            confirm={`Delete the organization ${organization.data.name}?`}
            action={async () => {
              await api.delete(path);
              navigate('/console/organizations');
            }}
          >
            Delete organization
          </ActionButton>
        </>
      )}
    </section>
  );
}
