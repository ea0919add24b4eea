import { useEffect, useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { UserJson } from '../../api/types.js';
import { ActionForm, Field } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { navigate } from '../../router.js';
import { useSession, updateSessionUser } from '../../session.js';
import { EmailChoices } from './email-choices.js';

/**
 * Account settings: name, slug, e-mail, and the e-mail choice of each project. A new e-mail address takes effect only once the link mailed to it is
 * opened; until then the account keeps its address and the page says where the link went.
 */
export function Account({ user }: { user: string }) {
  const session = useSession();
  const loaded = useApi((signal) => api.get<UserJson>(`/users/${segment(user)}`, {}, signal), [user]);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [email, setEmail] = useState('');
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState<string>();
  useEffect(() => {
    if (!loaded.data) return;
    setName(loaded.data.name);
    setSlug(loaded.data.slug);
    setEmail(loaded.data.email);
  }, [loaded.data]);
  return (
    <section>
      <PageHeader title="Account settings" />
      <ErrorMessage error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading />}
      {loaded.data && (
        <>
          <ActionForm
            submit="Save"
            label="Account settings"
            onSubmit={async () => {
              const updated = await api.patch<UserJson>(`/users/${segment(user)}`, { name, slug, email });
              if (updated.uuid === session?.user.uuid) updateSessionUser(updated);
              const asked = email.trim().toLowerCase();
              setPending(asked !== updated.email ? asked : undefined);
              setEmail(updated.email);
              setSaved(true);
              if (updated.slug !== user)
                navigate(`/console/users/${segment(updated.slug)}/settings`, { replace: true });
            }}
          >
            <Field label="Name">
              <input
                required
                value={name}
                onInput={(e) => (setName(e.currentTarget.value), setSaved(false))}
              />
            </Field>
            <Field label="Slug" hint="Your name in URLs">
              <input
                required
                value={slug}
                onInput={(e) => (setSlug(e.currentTarget.value), setSaved(false))}
              />
            </Field>
            <Field label="E-mail" hint="Login links go here">
              <input
                type="email"
                required
                value={email}
                onInput={(e) => (setEmail(e.currentTarget.value), setSaved(false))}
              />
            </Field>
          </ActionForm>
          {saved && (
            <p class="success" role="status">
              {pending
                ? `Saved. The e-mail address changes to ${pending} once you open the link sent there; a notice went to ${email}.`
                : 'Saved.'}
            </p>
          )}
          <p class="muted">
            Member since {formatDateTime(loaded.data.created)}
            {loaded.data.admin && ' · server administrator'}
            {session && ` · this session ends ${formatDateTime(session.expiration)}`}
          </p>
          <EmailChoices user={user} />
        </>
      )}
    </section>
  );
}
