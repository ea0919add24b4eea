import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api/client.js';
import type { AuthUserJson } from '../../api/types.js';
import { ErrorMessage, Loading } from '../../components/status.js';
import { navigate, useLocation } from '../../router.js';
import { startSession } from '../../session.js';
import { AuthFrame } from './frame.js';
import { rememberPending, takeNext } from './pending.js';

/**
 * "Log in with GitHub", shown only when the server offers it (plus.codehost and an enterprise license): the API
 * answers the authorize URL, or a 403 saying why not, and then the button stays hidden.
 */
export function GitHubLogin({ invite }: { invite?: string | undefined }) {
  const { query } = useLocation();
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    request<{ url: string }>('GET', '/auth/github', {
      query: invite ? { invite } : {},
      signal: controller.signal,
      anonymous: true,
    }).then(
      (answer) => setUrl(answer.data.url),
      () => setUrl(undefined),
    );
    return () => controller.abort();
  }, [invite]);
  if (!url) return null;
  return (
    <p>
      <a class="button" href={url} onClick={() => rememberPending('', query.get('next'))}>
        Log in with GitHub
      </a>
    </p>
  );
}

/** GitHub sends the browser back here with ?code=&state=: they are exchanged for a session at once. */
export function GitHubCallback() {
  const { query } = useLocation();
  const code = query.get('code');
  const state = query.get('state');
  const [error, setError] = useState<Error>();
  useEffect(() => {
    if (!code || !state) {
      setError(new Error('GitHub sent no code back; start the login again'));
      return;
    }
    request<AuthUserJson>('POST', '/auth/github', { body: { code, state }, anonymous: true }).then(
      (answer) => {
        startSession(answer.data);
        navigate(takeNext(), { replace: true });
      },
      (e: Error) => setError(e),
    );
  }, [code, state]);
  return (
    <AuthFrame title="Log in with GitHub">
      {error ? (
        <>
          <ErrorMessage error={error} />
          <p>
            <a href="/auth/login">Back to the login page</a>
          </p>
        </>
      ) : (
        <Loading what="Logging you in with GitHub" />
      )}
    </AuthFrame>
  );
}
