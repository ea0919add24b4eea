import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { NotificationChoiceJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { ErrorMessage } from '../../components/status.js';
import { useLocation } from '../../router.js';
import { AuthFrame } from '../auth/frame.js';

/**
 * Where the link of a notification e-mail lands (?token=): one click stops that project's e-mails, without
 * logging in. It asks first, so a mail scanner that opens every link changes nothing.
 */
export function Unsubscribe() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [done, setDone] = useState<NotificationChoiceJson>();
  if (done)
    return (
      <AuthFrame title="Unsubscribed">
        <p role="status">
          You get no more e-mail about <strong>{done.project.name}</strong>. Choose again on your account
          page.
        </p>
      </AuthFrame>
    );
  return (
    <AuthFrame title="Stop these e-mails">
      {token ? (
        <>
          <p>Stop the e-mails about this project's regressions?</p>
          <ActionButton
            class="primary"
            action={async () =>
              setDone(
                await api.postAnonymous<NotificationChoiceJson>('/notifications/unsubscribe', { token }),
              )
            }
          >
            Unsubscribe
          </ActionButton>
        </>
      ) : (
        <ErrorMessage error="This link has no token: open the whole link of the e-mail." />
      )}
    </AuthFrame>
  );
}
