import type { UserCaller } from '../accounts/users.js';
import { requireOrganization } from '../access/resolve.js';
import type { UsageJson } from '../schemas/plus.js';
import type { ServiceContext } from '../services/context.js';
import { isPaid, nextUtcMidnight, planOf, utcDay } from './plan.js';

/** `GET /v0/organizations/{organization}/usage`: metrics used in the current period against what is allowed. */
export class UsageService {
  constructor(private readonly ctx: ServiceContext) {}

  async get(caller: UserCaller, ref: string): Promise<UsageJson> {
    const now = this.ctx.now();
    return this.ctx.storage.read(async (r) => {
      const { organization } = await requireOrganization(r, caller, ref, 'manage');
      const plan = await planOf(this.ctx, organization);
      if (plan.license && isPaid(plan)) {
        const { issued, expires, entitlement } = plan.license;
        return {
          organization: organization.uuid,
          kind: 'self_hosted_licensed',
          level: plan.level,
          start_time: issued.toISOString(),
          end_time: expires.toISOString(),
          usage: await r.usage.metrics(organization.id, utcDay(issued), utcDay(now)),
          entitlement,
        };
      }
      const today = utcDay(now);
      return {
        organization: organization.uuid,
        kind: 'self_hosted_free',
        level: 'free',
        start_time: `${today}T00:00:00.000Z`,
        end_time: nextUtcMidnight(now).toISOString(),
        usage: await r.usage.metrics(organization.id, today, today),
        entitlement: this.ctx.config.current.plus?.rate_limiting?.daily_metrics ?? null,
      };
    });
  }
}
