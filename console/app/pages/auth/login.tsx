import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ActionForm, Field } from '../../components/form.js';
import { navigate, useLocation } from '../../router.js';
import { AuthFrame } from './frame.js';
import { GitHubLogin } from './github.js';
import { rememberPending } from './pending.js';

/** Log in by e-mail link: the API mails (or logs) a link to /auth/confirm. */
export function Login() {
  const { query } = useLocation();
  const [email, setEmail] = useState('');
  const invite = query.get('invite') ?? undefined;
  return (
    <AuthFrame title="Log in">
      <ActionForm
        submit="Send me a login link"
        label="Log in"
        onSubmit={async () => {
          await api.postAnonymous('/auth/login', { email, ...(invite ? { invite } : {}) });
          rememberPending(email, query.get('next'));
          navigate('/auth/confirm');
        }}
      >
        <Field label="E-mail">
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
      </ActionForm>
      <GitHubLogin invite={invite} />
      <p class="muted">
        No account yet?{' '}
        <a href={`/auth/signup${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`}>Sign up</a>
      </p>
    </AuthFrame>
  );
}

export function Signup() {
  const { query } = useLocation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [agree, setAgree] = useState(false);
  const invite = query.get('invite') ?? undefined;
  return (
    <AuthFrame title="Sign up">
      <ActionForm
        submit="Sign up"
        label="Sign up"
        onSubmit={async () => {
          await api.postAnonymous('/auth/signup', {
            name,
            email,
            i_agree: agree,
            ...(invite ? { invite } : {}),
          });
          rememberPending(email, query.get('next'));
          navigate('/auth/confirm');
        }}
      >
        <Field label="Name" hint="Letters and digits, with inner spaces or , . - '">
          <input
            name="name"
            required
            autoComplete="name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Field label="E-mail">
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <label class="check">
          <input
            type="checkbox"
            name="i_agree"
            checked={agree}
            onChange={(e) => setAgree(e.currentTarget.checked)}
          />
          I agree to the terms of use of this server
        </label>
      </ActionForm>
      <GitHubLogin invite={invite} />
      <p class="muted">
        Have an account? <a href="/auth/login">Log in</a>
      </p>
    </AuthFrame>
  );
}
