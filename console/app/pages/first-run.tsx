import { api, segment } from '../api/client.js';
import type { OrganizationJson } from '../api/types.js';
import { runCommand } from '../components/run-command.js';
import { CopyButton } from '../components/copy-button.js';
import { useApi } from '../lib/use-api.js';
import { useSession } from '../session.js';

/** The caller's first organization when none of the caller's organizations has a project yet. */
function useEmptyOrganization(): OrganizationJson | undefined {
  const loaded = useApi(async (signal) => {
    const organizations = (await api.list<OrganizationJson>('/organizations', { per_page: 255 }, signal))
      .data;
    const counts = await Promise.all(
      organizations.map(
        async (o) =>
          (await api.list(`/organizations/${segment(o.slug)}/projects`, { per_page: 1 }, signal)).total,
      ),
    );
    return counts.every((count) => count === 0) ? organizations[0] : undefined;
  }, []);
  return loaded.data;
}

/**
 * What to do next for someone whose organizations are still empty (just after sign-up): create a project, create
 * a token, and submit a first run with a line that needs only the token pasted in.
 */
export function FirstRun() {
  const session = useSession();
  const organization = useEmptyOrganization();
  if (!session || !organization) return null;
  const project = 'my-project';
  const line = runCommand({ project, token: 'YOUR_TOKEN' });
  const tokens = `/console/users/${segment(session.user.slug)}/tokens/add?project=${project}`;
  return (
    <section class="callout first-run" aria-labelledby="first-run">
      <h2 id="first-run">Get started</h2>
      <ol>
        <li>
          Create a project in{' '}
          <a href={`/console/organizations/${segment(organization.slug)}`}>{organization.name}</a>, or let the
          first run create it.
        </li>
        <li>
          <a href={tokens}>Create an API token</a> for the command line or CI: its page gives this line with
          the token filled in.
        </li>
        <li>
          Submit a run (<code>npm install -g benchtrack</code> installs the command):
          <code class="secret-value" data-testid="first-run-command">
            {line}
          </code>
          <CopyButton text={line} label="Copy the command" />
        </li>
        <li>Open the project here: its plots, reports and alerts fill in as runs arrive.</li>
      </ol>
    </section>
  );
}
