import type { AdapterSettings, Average } from '../../../kit/index.js';

/**
 * Whether an adapter takes the requested `average`. Unset is always fine; a set value must be one the
 * harness reports (libtest only reports a median, Criterion only a mean, ...). Otherwise the adapter
 * returns `null`, so `magic` moves on and an explicit adapter fails, as in the reference.
 */
export function acceptsAverage(settings: AdapterSettings, ...supported: Average[]): boolean {
  return settings.average === undefined || supported.includes(settings.average);
}
