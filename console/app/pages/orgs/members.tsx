import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { MemberJson, OrganizationJson } from '../../api/types.js';
import { ActionButton, ActionForm, Field } from '../../components/form.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { useSession } from '../../session.js';
import { OrgTabs } from './org-tabs.js';

type Role = 'leader' | 'member';

/** Members with their roles, and invitations by e-mail (the API mails a link to /auth/invite). */
export function OrganizationMembers({ org }: { org: string }) {
  const session = useSession();
  const path = `/organizations/${segment(org)}`;
  const organization = useApi((signal) => api.get<OrganizationJson>(path, {}, signal), [org]);
  const members = useApi(
    (signal) => api.list<MemberJson>(`${path}/members`, { per_page: 255, sort: 'name' }, signal),
    [org],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [invited, setInvited] = useState('');
  return (
    <section>
      <PageHeader title={`${organization.data?.name ?? org}: members`} />
      <OrgTabs org={org} />
      <ErrorMessage error={members.error} />
      {members.loading && !members.data && <Loading />}
      {members.data?.data.length === 0 && <Empty title="No members." />}
      {members.data && members.data.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((m) => (
                <tr key={m.uuid}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>
                    <select
                      aria-label={`Role of ${m.name}`}
                      value={m.role}
                      onChange={async (e) => {
                        const next = e.currentTarget.value as Role;
                        try {
                          await api.patch(`${path}/members/${segment(m.slug)}`, { role: next });
                        } catch (error) {
                          alert((error as Error).message);
                        }
                        members.reload();
                      }}
                    >
                      <option value="leader">Leader</option>
                      <option value="member">Member</option>
                    </select>
                  </td>
                  <td>
                    <ActionButton
                      class="danger"
                      confirm={`Remove ${m.name} from the organization?`}
                      action={async () => {
                        await api.delete(`${path}/members/${segment(m.slug)}`);
                        members.reload();
                      }}
                    >
                      {m.uuid === session?.user.uuid ? 'Leave' : 'Remove'}
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Invite a member</h2>
      <ActionForm
        submit="Send invitation"
        label="Invite a member"
        onSubmit={async () => {
          await api.post(`${path}/members`, { email, role });
          setInvited(email);
          setEmail('');
        }}
      >
        <Field label="E-mail">
          <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field label="Role" hint="Leaders manage members and settings">
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="member">Member</option>
            <option value="leader">Leader</option>
          </select>
        </Field>
      </ActionForm>
      {invited && (
        <p class="success" role="status">
          Invitation sent to {invited}. It joins the organization when they accept it.
        </p>
      )}
    </section>
  );
}
