import { describe, expect, it } from 'vitest';
import type { NotificationRecord } from '../storage/records.js';
import { notificationMail, type Payload } from './bodies.js';
import type { RegressionDigest } from './slack.js';

const regression = (status: string, benchmark: string): RegressionDigest => ({
  kind: 'regression',
  status,
  branch: { name: 'main' },
  testbed: { name: 'ci' },
  last_good: { number: 44, hash: null },
  first_bad: { number: 45, hash: null },
  series: [{ benchmark: { name: benchmark }, measure: { name: 'latency' }, change: 0.15 }],
  console_url: `https://bench.example.com/console/projects/p/regressions/${benchmark}`,
});

const notification = (event: string): NotificationRecord => ({
  id: 1,
  uuid: '00000000-0000-4000-8000-000000000001',
  project_id: 1,
  event,
  regression_id: null,
  report_id: null,
  webhook_id: null,
  payload: null,
  fanned: true,
  created: new Date('2026-03-02T00:00:01Z'),
});

const links = {
  unsubscribe: 'https://bench.example.com/notifications/unsubscribe?token=t',
  settings: 'https://bench.example.com/console/users/ada/settings',
};

describe('notification e-mail', () => {
  it('says in a digest what happened to each regression by its status: found, changed or closed', () => {
    const payload = {
      project: { name: 'Acme' },
      since: '2026-03-01T00:00:00.000Z',
      regressions: [
        regression('untriaged', 'found_one'),
        regression('acknowledged', 'taken_one'),
        regression('fixed', 'fixed_one'),
        regression('invalid', 'noise_one'),
      ],
    } as unknown as Payload;
    const mail = notificationMail(
      notification('digest'),
      payload,
      { name: 'Ada', email: 'ada@example.com' },
      links,
    );
    expect(mail.subject).toBe('[Benchtrack] Acme: 4 regressions on 2026-03-01');
    const headlines = mail.text.split('\n').filter((line) => line.startsWith('Regression '));
    expect(headlines.map((line) => line.split(' in Acme')[0])).toEqual([
      'Regression found',
      'Regression updated (acknowledged)',
      'Regression closed (fixed)',
      'Regression closed (invalid)',
    ]);
    expect(mail.text).toContain(`Stop these e-mails: ${links.unsubscribe}`);
    expect(mail.unsubscribe).toBe(links.unsubscribe);
  });
});
