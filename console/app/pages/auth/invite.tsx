import { api } from '../../api/client.js';
import type { OrganizationJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { ErrorMessage } from '../../components/status.js';
import { navigate, useLocation } from '../../router.js';
import { useSession } from '../../session.js';
import { AuthFrame } from './frame.js';

/** An invitation link (`/auth/invite?token=`): accepted while logged in (spec: Authentication 8). */
export function Invite() {
  const { query, href } = useLocation();
  const session = useSession();
  const invite = query.get('token');
  if (!invite) {
    return (
      <AuthFrame title="Invitation">
        <ErrorMessage error="This invitation link has no token; open the link from the e-mail again." />
      </AuthFrame>
    );
  }
  if (!session) {
    const carry = `invite=${encodeURIComponent(invite)}&next=${encodeURIComponent(href)}`;
    return (
      <AuthFrame title="You are invited">
        <p>Log in or sign up to join the organization; then open this link again to accept.</p>
        <div class="row">
          <a class="button primary" href={`/auth/login?${carry}`}>
            Log in
          </a>
          <a class="button" href={`/auth/signup?${carry}`}>
            Sign up
          </a>
        </div>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="You are invited">
      <p>
        Join the organization as <strong>{session.user.name}</strong>?
      </p>
      <ActionButton
        class="primary"
        action={async () => {
          const organization = await api.post<OrganizationJson>('/auth/accept', { invite });
          navigate(`/console/organizations/${organization.slug}`, { replace: true });
        }}
      >
        Accept the invitation
      </ActionButton>
    </AuthFrame>
  );
}
