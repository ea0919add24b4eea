import { describe, expect, it } from 'vitest';
import { formatChange, rangeText, slackRegression, SERIES_SHOWN, type RegressionDigest } from './slack.js';

const regression = (series: number): RegressionDigest => ({
  kind: 'regression',
  status: 'untriaged',
  branch: { name: 'main' },
  testbed: { name: 'ci' },
  last_good: { number: 44, hash: 'a1b2c3d4e5f6' },
  first_bad: { number: 45, hash: '0f9e8d7c6b5a' },
  series: Array.from({ length: series }, (_, i) => ({
    benchmark: { name: i === 0 ? 'parse <json> & more' : `bench-${i}` },
    measure: { name: 'latency' },
    change: i === 1 ? null : 0.15 - i / 100,
  })),
  console_url: 'https://bench.example.com/console/projects/p/regressions/r',
});

describe('Slack messages', () => {
  it('name every series shown with its change, escape markup, and link the regression', () => {
    const body = slackRegression('regression.created', 'Acme', regression(2));
    expect(body.text).toBe(
      'Regression found in Acme: 2 series on main / ci, v44 (a1b2c3d)..v45 (0f9e8d7): parse &lt;json&gt; &amp; more +15.0%, bench-1 n/a https://bench.example.com/console/projects/p/regressions/r',
    );
    const [title, lines, context] = body.blocks;
    expect(title?.text?.text).toBe(
      '*<https://bench.example.com/console/projects/p/regressions/r|Regression found in Acme: 2 series on main / ci, v44 (a1b2c3d)..v45 (0f9e8d7)>*',
    );
    expect(lines?.text?.text).toBe(
      '• parse &lt;json&gt; &amp; more (latency): +15.0%\n• bench-1 (latency): n/a',
    );
    expect(context?.elements?.[0]?.text).toBe(
      'Status: *untriaged* · regression · v44 (a1b2c3d)..v45 (0f9e8d7)',
    );
  });

  it('count the series past the first ten', () => {
    const body = slackRegression('regression.closed', 'Acme', { ...regression(25), status: 'fixed' });
    expect(body.text).toMatch(/^Regression closed \(fixed\) in Acme: 25 series/);
    expect(body.text).toContain('and 15 more');
    expect(body.blocks[1]?.text?.text?.split('\n')).toHaveLength(SERIES_SHOWN + 1);
  });

  it('write changes and ranges readably', () => {
    expect(formatChange(0.152)).toBe('+15.2%');
    expect(formatChange(-0.03)).toBe('−3.0%');
    expect(formatChange(Number.POSITIVE_INFINITY)).toBe('n/a');
    expect(rangeText({ last_good: null, first_bad: { number: 3, hash: null } })).toBe('v3');
  });
});
