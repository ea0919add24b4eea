import { InputError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { OrganizationRecord } from '../storage/records.js';
import { verifyLicense, type License, type PlanLevel } from './license.js';

/** An organization's plan: `free` without a valid license. */
export interface Plan {
  readonly level: PlanLevel;
  readonly license: License | null;
}

const FREE: Plan = { level: 'free', license: null };

/** Licenses already reported as no longer valid, so the log says it once per process, not on every report. */
const warned = new Set<string>();

/**
 * The plan an organization's stored license grants now. A license that has expired (or that a changed key list
 * no longer trusts) drops the organization to free, with one warning in the log.
 */
export async function planOf(ctx: ServiceContext, organization: OrganizationRecord): Promise<Plan> {
  if (!organization.license) return FREE;
  try {
    const license = await verifyLicense(
      organization.license,
      organization.uuid,
      ctx.config.current.plus?.license_keys ?? [],
      ctx.now(),
    );
    return { level: license.level, license };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const key = `${organization.uuid}\u0000${organization.license}`;
    if (!warned.has(key)) {
      warned.add(key);
      ctx.logger.warn(
        { organization: organization.uuid, problem: error.message },
        'organization license no longer valid; the organization is on the free plan',
      );
    }
    return FREE;
  }
}

/** Pro, team and enterprise are paid plans; free organizations and unclaimed ones are not. */
export function isPaid(plan: Plan): boolean {
  return plan.level !== 'free';
}

/** `YYYY-MM-DD` of an instant's UTC day. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start of the UTC day after an instant's. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
