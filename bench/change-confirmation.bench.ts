import { DETECTION_DEFAULTS, detectChangePoints } from '../core/index.js';
import { newlyConfirmed } from '../core/reports/change-alerts.js';
import { BenchReport } from './lib/report.js';
import { Random } from './lib/random.js';

/**
 * How many reports a change_point threshold needs to confirm a step, with the service's rule
 * (`newlyConfirmed` in core/reports/change-alerts.ts): every new value, detect over the history with and
 * without it; the alert is raised by the first report that confirms a change point within ±3 of the step. Seeded series:
 * 64 points at level 100 with Gaussian noise of coefficient of variation CV, then 100·(1 + step) plus the same
 * noise for up to 32 more reports. Upper boundary 0.9995 (max_pvalue 0.0005, the detector's default).
 * "reports" counts the points of the new regime up to the confirming one (3 = the third point after the
 * step confirms it; 3 is the least the rule allows). False alerts: confirmed change points per 1,000 reports
 * on unchanged series (64 points of history, then 64 reports).
 */
const LEVEL = 100;
const HISTORY = 64;
const AFTER = 32;
const STEPS = [0.02, 0.05, 0.1, 0.2];
const CVS = [0.01, 0.02, 0.05];
const TRIALS = 100;
const UNCHANGED_SERIES = 60;

/** Reports of the new regime until the first confirmation of a change point within ±3 of the step. */
function reportsToConfirm(series: Float64Array, step: number): number | undefined {
  let known = detectChangePoints(series.subarray(0, step + 1), DETECTION_DEFAULTS).map((p) => p.index);
  const alerted: number[] = [];
  for (let n = step + 1; n < series.length; n++) {
    const found = detectChangePoints(series.subarray(0, n + 1), DETECTION_DEFAULTS).map((p) => p.index);
    const confirmed = newlyConfirmed(known, found, n, alerted).map((k) => found[k] as number);
    if (confirmed.some((index) => index > step - 4 && index <= step + 3)) return n - step + 1;
    alerted.push(...confirmed);
    known = found;
  }
  return undefined;
}

function falseAlertsPer1000(random: Random, cv: number): number {
  let alerts = 0;
  for (let s = 0; s < UNCHANGED_SERIES; s++) {
    const series = Float64Array.from({ length: 2 * HISTORY }, () => LEVEL * (1 + cv * random.normal()));
    let known = detectChangePoints(series.subarray(0, HISTORY), DETECTION_DEFAULTS).map((p) => p.index);
    const alerted: number[] = [];
    for (let n = HISTORY; n < series.length; n++) {
      const found = detectChangePoints(series.subarray(0, n + 1), DETECTION_DEFAULTS).map((p) => p.index);
      const confirmed = newlyConfirmed(known, found, n, alerted).map((k) => found[k] as number);
      alerted.push(...confirmed);
      alerts += confirmed.length;
      known = found;
    }
  }
  return (alerts / (UNCHANGED_SERIES * HISTORY)) * 1000;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const report = new BenchReport('change_point alerts: reports to confirm a step (upper_boundary 0.9995)');
const random = new Random(18);
const table: string[] = [];
for (const cv of CVS) {
  const cells: string[] = [];
  for (const step of STEPS) {
    const counts: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const series = Float64Array.from(
        { length: HISTORY + AFTER },
        (_, i) => LEVEL * (1 + (i >= HISTORY ? step : 0) + cv * random.normal()),
      );
      counts.push(reportsToConfirm(series, HISTORY) ?? Infinity);
    }
    counts.sort((a, b) => a - b);
    const found = counts.filter(Number.isFinite).length / TRIALS;
    const median = quantile(counts, 0.5) as number;
    const p90 = quantile(counts, 0.9) as number;
    const name = `confirm/cv=${cv}/step=${step}`;
    report.add(name, 'median_reports', median);
    report.add(name, 'p90_reports', p90);
    report.add(name, 'confirmed_within_32', found);
    cells.push(`${median} / ${p90} / ${Math.round(found * 100)}%`);
  }
  const falseRate = falseAlertsPer1000(random, cv);
  report.add(`confirm/cv=${cv}/unchanged`, 'false_alerts_per_1000', falseRate);
  table.push(`| ${Math.round(cv * 100)}% | ${cells.join(' | ')} | ${falseRate.toFixed(2)} |`);
}
report.print();
process.stderr.write(
  `\n| CV | ${STEPS.map((s) => `+${Math.round(s * 100)}%`).join(' | ')} | false/1000 reports |\n${table.join('\n')}\n`,
);
