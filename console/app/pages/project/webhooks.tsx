import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { DeliveryJson, WebhookJson } from '../../api/types.js';
import { ActionButton, ActionForm, Field } from '../../components/form.js';
import { Empty, ErrorMessage, Loading } from '../../components/status.js';
import { formatDateTime } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { useEvery } from '../../lib/use-every.js';
import type { ProjectContext } from './context.js';

const EVENTS = [
  ['regression.created', 'a regression is found'],
  ['regression.updated', 'an open regression changes'],
  ['regression.closed', 'a regression is closed'],
  ['report.created', 'every report'],
] as const;
const DEFAULT_EVENTS = new Set(['regression.created', 'regression.updated', 'regression.closed']);

/** The badge of a delivery's state, with the last answer's status. */
function DeliveryState({ state, status }: { state: DeliveryJson['state']; status?: number | null }) {
  const kind = state === 'delivered' ? 'public' : state === 'failed' ? 'alert' : '';
  return (
    <span class={`badge ${kind}`}>
      {state}
      {status ? ` · ${status}` : ''}
    </span>
  );
}

/** What the last attempt of a delivery got: the answer's status and time, or the error. */
function lastAttempt(delivery: DeliveryJson): string {
  const attempt = delivery.attempts.at(-1);
  if (!attempt) return 'not tried yet';
  const what = attempt.status !== null ? `HTTP ${attempt.status}` : (attempt.error ?? 'no answer');
  return `${what} in ${attempt.duration_ms} ms${attempt.status !== null && attempt.error ? ` (${attempt.error})` : ''}`;
}

/** A webhook's deliveries, newest first, with every attempt; refreshed while one is pending. */
function Deliveries({ ctx, webhook }: { ctx: ProjectContext; webhook: WebhookJson }) {
  const path = `${ctx.path}/webhooks/${webhook.uuid}/deliveries`;
  const list = useApi((signal) => api.get<DeliveryJson[]>(path, { per_page: 25 }, signal), [path]);
  useEvery(list.reload, 1000, list.data?.some((d) => d.state === 'pending') ?? false);
  if (list.error && !list.data) return <ErrorMessage error={list.error} />;
  if (!list.data) return <Loading what="Loading the deliveries" />;
  if (list.data.length === 0) return <p class="muted">No deliveries yet: send a test delivery.</p>;
  return (
    <div class="table-wrap">
      <table aria-label={`Deliveries of ${webhook.url}`}>
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last attempt</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {list.data.map((delivery) => (
            <tr key={delivery.uuid}>
              <td>{formatDateTime(delivery.created)}</td>
              <td class="mono">{delivery.event}</td>
              <td>
                <DeliveryState state={delivery.state} status={delivery.attempts.at(-1)?.status} />
              </td>
              <td
                title={delivery.attempts
                  .map((a) => `${formatDateTime(a.created)}: ${a.status ?? a.error}`)
                  .join('\n')}
              >
                {delivery.attempts.length}
                {delivery.next_attempt && (
                  <span class="muted"> · next {formatDateTime(delivery.next_attempt)}</span>
                )}
              </td>
              <td>{lastAttempt(delivery)}</td>
              <td>
                {delivery.state !== 'pending' && (
                  <ActionButton
                    label={`Redeliver ${delivery.uuid}`}
                    action={async () => {
                      await api.post(`${path}/${delivery.uuid}/redeliver`, {});
                      list.reload();
                    }}
                  >
                    Redeliver
                  </ActionButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The form of a new webhook: URL, secret, body format and events. */
function NewWebhook({ ctx, created }: { ctx: ProjectContext; created: () => void }) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [format, setFormat] = useState<'json' | 'slack'>('json');
  const [events, setEvents] = useState<Set<string>>(new Set(DEFAULT_EVENTS));
  return (
    <ActionForm
      submit="Add webhook"
      label="New webhook"
      onSubmit={async () => {
        await api.post(`${ctx.path}/webhooks`, {
          url: url.trim(),
          ...(secret ? { secret } : {}),
          format,
          events: EVENTS.map(([event]) => event).filter((event) => events.has(event)),
        });
        setUrl('');
        setSecret('');
        created();
      }}
    >
      <Field
        label="URL"
        hint="Where events are posted (http or https); Slack and Mattermost give one per channel"
      >
        <input type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </Field>
      <Field
        label="Secret"
        hint="Optional: signs each body (X-Benchtrack-Signature, HMAC-SHA256); never shown again"
      >
        <input
          type="password"
          autoComplete="off"
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
        />
      </Field>
      <Field label="Format">
        <select value={format} onChange={(e) => setFormat(e.currentTarget.value as 'json' | 'slack')}>
          <option value="json">Benchtrack JSON</option>
          <option value="slack">Slack message</option>
        </select>
      </Field>
      <fieldset class="field">
        <legend class="label">Events</legend>
        {EVENTS.map(([event, what]) => (
          <label key={event} class="checkbox">
            <input
              type="checkbox"
              checked={events.has(event)}
              onChange={(e) => {
                const next = new Set(events);
                if (e.currentTarget.checked) next.add(event);
                else next.delete(event);
                setEvents(next);
              }}
            />{' '}
            <span class="mono">{event}</span> <span class="muted">({what})</span>
          </label>
        ))}
      </fieldset>
    </ActionForm>
  );
}

/**
 * A project's webhooks, on its settings page: each with its events and last delivery, a test delivery, its
 * deliveries with every attempt (and redelivery), deletion, and the form of a new one.
 */
export function Webhooks({ ctx }: { ctx: ProjectContext }) {
  const list = useApi(
    (signal) => api.get<WebhookJson[]>(`${ctx.path}/webhooks`, { per_page: 255 }, signal),
    [ctx.path],
  );
  // a last delivery that waits for an attempt is followed until it is delivered or failed
  useEvery(list.reload, 1000, list.data?.some((w) => w.last_delivery?.state === 'pending') ?? false);
  const [shown, setShown] = useState<string>();
  // a test delivery shows its webhook's deliveries anew
  const [round, setRound] = useState(0);
  return (
    <>
      <h2>Webhooks</h2>
      <p class="muted">
        Regressions of this project (and, if chosen, every report) are posted to these URLs as they happen,
        and retried for about an hour when a receiver fails.
      </p>
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.length === 0 && <Empty title="No webhooks yet." />}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table aria-label="Webhooks">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Format</th>
                <th scope="col">Events</th>
                <th scope="col">Signed</th>
                <th scope="col">Last delivery</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.data.map((webhook) => (
                <tr key={webhook.uuid}>
                  <td class="mono">{webhook.url}</td>
                  <td>{webhook.format}</td>
                  <td class="mono">{webhook.events.join(', ')}</td>
                  <td>{webhook.has_secret ? 'yes' : 'no'}</td>
                  <td>
                    {webhook.last_delivery ? (
                      <>
                        <DeliveryState
                          state={webhook.last_delivery.state}
                          status={webhook.last_delivery.status}
                        />{' '}
                        <span class="muted">{webhook.last_delivery.event}</span>
                      </>
                    ) : (
                      <span class="muted">none</span>
                    )}
                  </td>
                  <td>
                    <div class="actions">
                      <ActionButton
                        label={`Send a test delivery to ${webhook.url}`}
                        action={async () => {
                          await api.post(`${ctx.path}/webhooks/${segment(webhook.uuid)}/test`, {});
                          setShown(webhook.uuid);
                          setRound(round + 1);
                          list.reload();
                        }}
                      >
                        Test
                      </ActionButton>
                      <button
                        type="button"
                        aria-expanded={shown === webhook.uuid}
                        onClick={() => setShown(shown === webhook.uuid ? undefined : webhook.uuid)}
                      >
                        Deliveries
                      </button>
                      <ActionButton
                        class="danger"
                        label={`Delete the webhook ${webhook.url}`}
                        confirm={`Delete the webhook to ${webhook.url}? Its pending deliveries are not sent.`}
                        action={async () => {
                          await api.delete(`${ctx.path}/webhooks/${segment(webhook.uuid)}`);
                          list.reload();
                        }}
                      >
                        Delete
                      </ActionButton>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data?.map(
        (webhook) =>
          shown === webhook.uuid && (
            <section key={`${webhook.uuid}:${round}`} aria-label="Deliveries">
              <h3>Deliveries to {webhook.url}</h3>
              <Deliveries ctx={ctx} webhook={webhook} />
            </section>
          ),
      )}
      <h3>New webhook</h3>
      <NewWebhook ctx={ctx} created={list.reload} />
    </>
  );
}
