import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { ProjectJson } from '../../api/types.js';
import { ActionButton, ActionForm, Field } from '../../components/form.js';
import { PageHeader } from '../../components/status.js';
import { navigate } from '../../router.js';
import type { ProjectContext } from './context.js';
import { Webhooks } from './webhooks.js';

/** Project settings: name, slug, URL, public or private; webhooks; deletion. */
export function ProjectSettings({ ctx }: { ctx: ProjectContext }) {
  const { project } = ctx;
  const [name, setName] = useState(project.name);
  const [slug, setSlug] = useState(project.slug);
  const [url, setUrl] = useState(project.url ?? '');
  const [visibility, setVisibility] = useState(project.visibility);
  const [saved, setSaved] = useState(false);
  const touch = () => setSaved(false);
  return (
    <section>
      <PageHeader title="Project settings" />
      <ActionForm
        submit="Save"
        label="Project settings"
        onSubmit={async () => {
          const updated = await api.patch<ProjectJson>(ctx.path, {
            name,
            slug,
            url: url.trim() || null,
            visibility,
          });
          setSaved(true);
          if (updated.slug !== project.slug)
            navigate(`/console/projects/${segment(updated.slug)}/settings`, { replace: true });
          else ctx.reload();
        }}
      >
        <Field label="Name">
          <input required value={name} onInput={(e) => (setName(e.currentTarget.value), touch())} />
        </Field>
        <Field label="Slug" hint="In URLs and for the CLI's --project; changing it breaks old links">
          <input required value={slug} onInput={(e) => (setSlug(e.currentTarget.value), touch())} />
        </Field>
        <Field label="URL" hint="Empty removes it">
          <input type="url" value={url} onInput={(e) => (setUrl(e.currentTarget.value), touch())} />
        </Field>
        <Field
          label="Visibility"
          hint="Anyone can view a public project's perf pages, reports and alerts without logging in"
        >
          <select
            value={visibility}
            onChange={(e) => (setVisibility(e.currentTarget.value as 'public' | 'private'), touch())}
          >
            <option value="public">Public</option>
            <option value="private">Private</option>
          </select>
        </Field>
      </ActionForm>
      {saved && (
        <p class="success" role="status">
          Saved.
        </p>
      )}
      <Webhooks ctx={ctx} />
      <h2>Delete</h2>
      <p class="muted">Deletes the project with every report, metric, threshold, alert and plot.</p>
      <ActionButton
        class="danger"
        confirm={`Delete ${project.name} and all its data? This cannot be undone.`}
        action={async () => {
          await api.delete(ctx.path);
          navigate('/console/projects');
        }}
      >
        Delete project
      </ActionButton>
    </section>
  );
}
