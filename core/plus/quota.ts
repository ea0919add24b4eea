import { PaymentRequiredError, RateLimitError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { OrganizationRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { isPaid, nextUtcMidnight, planOf, utcDay } from './plan.js';

/**
 * Counts a report's metrics for its organization inside the report's own transaction and refuses the report
 * when they do not fit: over a license's entitlement for its billing period (402), or, for organizations without
 * a paid plan, over the daily quota `plus.rate_limiting.daily_metrics` when it is set (429). The count is a row
 * of the report's own, so reports of one organization never conflict over it; the total is read only where a
 * license or quota applies. That read holds the organization's lock first, so concurrent reports of the
 * organization that read it run one after the other (in a serializable transaction, the read alone makes one of two
 * that overlap run again), which keeps the limit exact whatever the number of API processes. A refused report
 * rolls back with its count, and nothing of it is stored.
 */
export async function chargeMetrics(
  ctx: ServiceContext,
  tx: WriteRepositories,
  organization: OrganizationRecord,
  count: number,
  now: Date,
): Promise<void> {
  const today = utcDay(now);
  await tx.usage.recordMetrics(organization.id, today, count);
  const plan = await planOf(ctx, organization);
  const sum = async (from: string) => {
    // reports of the organization that sum its usage run one after the other, each counting the one before
    await tx.locks.hold({ kind: 'organization', id: organization.id });
    return tx.usage.metrics(organization.id, from, today);
  };
  if (plan.license && isPaid(plan)) {
    const used = await sum(utcDay(plan.license.issued));
    if (used > plan.license.entitlement) {
      throw new PaymentRequiredError(
        `organization "${organization.slug}" has used ${used - count} of the ${plan.license.entitlement} metrics its ${plan.level} license allows until ${plan.license.expires.toISOString()}; this report has ${count}: renew or upgrade the license (organization update --license)`,
      );
    }
    return;
  }
  const quota = ctx.config.current.plus?.rate_limiting?.daily_metrics;
  if (quota === undefined) return;
  const todays = await sum(today);
  if (todays > quota) {
    const retryAfter = Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000);
    const how = organization.claimed
      ? 'add a license to the organization (organization update --license)'
      : 'claim the organization (organization claim) and add a license';
    throw new RateLimitError(
      `organization "${organization.slug}" may submit ${quota} metrics per UTC day without a paid plan and has submitted ${todays - count} today; this report has ${count}: wait until 00:00 UTC, or ${how}`,
      retryAfter,
    );
  }
}
