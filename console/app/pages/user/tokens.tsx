import { api, segment } from '../../api/client.js';
import type { TokenJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';

function tokenState(token: TokenJson): string {
  if (token.revoked) return `revoked ${formatDateTime(token.revoked)}`;
  if (Date.parse(token.expiration) < Date.now()) return 'expired';
  return 'active';
}

/** A user's API tokens (spec: Authentication 4); secrets are shown once, on the add page. */
export function Tokens({ user }: { user: string }) {
  const path = `/users/${segment(user)}/tokens`;
  const tokens = useApi(
    (signal) => api.list<TokenJson>(path, { per_page: 255, sort: 'creation' }, signal),
    [user],
  );
  return (
    <section>
      <PageHeader title="API tokens">
        <a class="button primary" href={`/console/users/${segment(user)}/tokens/add`}>
          Add a token
        </a>
      </PageHeader>
      <p class="muted">
        The CLI and CI jobs authenticate with an API token:{' '}
        <code>BENCHTRACK_API_TOKEN=… benchtrack run …</code>
      </p>
      <ErrorMessage error={tokens.error} />
      {tokens.loading && !tokens.data && <Loading />}
      {tokens.data?.data.length === 0 && (
        <Empty title="No API tokens yet.">Add one to submit results from CI.</Empty>
      )}
      {tokens.data && tokens.data.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.data.map((t) => (
                <tr key={t.uuid}>
                  <td>{t.name}</td>
                  <td>{formatDateTime(t.creation)}</td>
                  <td>{formatDateTime(t.expiration)}</td>
                  <td>{tokenState(t)}</td>
                  <td>
                    {!t.revoked && (
                      <ActionButton
                        class="danger"
                        label={`Revoke ${t.name}`}
                        confirm={`Revoke the token ${t.name}? Whatever uses it stops working.`}
                        action={async () => {
                          await api.delete(`${path}/${t.uuid}`);
                          tokens.reload();
                        }}
                      >
                        Revoke
                      </ActionButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
