import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { AuthUserJson } from '../../api/types.js';
import { ActionButton, ActionForm, Field } from '../../components/form.js';
import { ErrorMessage, Loading } from '../../components/status.js';
import { navigate, useLocation } from '../../router.js';
import { startSession } from '../../session.js';
import { AuthFrame } from './frame.js';
import { pendingEmail, takeNext } from './pending.js';

async function confirm(token: string): Promise<void> {
  const auth = await api.postAnonymous<AuthUserJson>('/auth/confirm', { token });
  startSession(auth);
  navigate(takeNext(), { replace: true });
}

/**
 * The e-mailed link lands here with ?token=: it is exchanged for a session at once. Without a token the page
 * says where the link went and can send it again (spec: Authentication 9).
 */
export function Confirm() {
  const { query } = useLocation();
  const token = query.get('token');
  const [error, setError] = useState<Error>();
  const [email, setEmail] = useState(pendingEmail);
  const [pasted, setPasted] = useState('');
  const [resent, setResent] = useState(false);

  useEffect(() => {
    if (token) confirm(token).catch((e: Error) => setError(e));
  }, [token]);

  if (token && !error) {
    return (
      <AuthFrame title="Confirming">
        <Loading what="Confirming your login link" />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Check your e-mail">
      <ErrorMessage error={error} />
      <p>
        {email ? (
          <>
            A login link was sent to <strong>{email}</strong>. Open it in this browser to continue.
          </>
        ) : (
          'Open the login link that was e-mailed to you.'
        )}{' '}
        On a server without e-mail, the link is in the API's log.
      </p>
      <div class="row">
        <Field label="E-mail">
          <input
            type="email"
            value={email}
            autoComplete="email"
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <ActionButton
          action={async () => {
            await api.postAnonymous('/auth/login', { email });
            setResent(true);
          }}
        >
          Resend the link
        </ActionButton>
      </div>
      {resent && (
        <p role="status" class="success">
          A new link is on its way to {email}.
        </p>
      )}
      <details>
        <summary>Paste the token instead</summary>
        <ActionForm submit="Confirm" onSubmit={() => confirm(pasted.trim())} label="Confirm with a token">
          <Field label="Token" hint="The token= part of the link">
            <input value={pasted} required onInput={(e) => setPasted(e.currentTarget.value)} />
          </Field>
        </ActionForm>
      </details>
    </AuthFrame>
  );
}
