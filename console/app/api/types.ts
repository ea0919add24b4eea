import type { z } from 'zod';
import type {
  UserJson,
  memberSchema,
  organizationSchema,
  tokenCreatedSchema,
  tokenSchema,
} from '../../../core/schemas/accounts.js';

/**
 * Wire types of the API, inferred from core's zod schemas (type-only imports: nothing of core reaches the
 * bundle, and the console still talks to the API over HTTP only).
 */
export type { ProjectJson, UserJson } from '../../../core/schemas/accounts.js';
export type {
  BranchJson,
  DimensionJson,
  MeasureJson,
  ModelJson,
  ThresholdJson,
} from '../../../core/schemas/dimensions.js';
export type { AlertCountsJson, AlertJson, ReportJson } from '../../../core/schemas/reports.js';
export type {
  RegressionCountsJson,
  RegressionEventJson,
  RegressionJson,
} from '../../../core/schemas/regressions.js';
export type TokenJson = z.infer<typeof tokenSchema>;
export type TokenCreatedJson = z.infer<typeof tokenCreatedSchema>;
export type OrganizationJson = z.infer<typeof organizationSchema>;
export type MemberJson = z.infer<typeof memberSchema>;

export interface AuthUserJson {
  readonly user: UserJson;
  readonly token: string;
  readonly creation: string;
  readonly expiration: string;
}
export type { ServerStatsJson, UsageJson } from '../../../core/schemas/plus.js';
export type { JobJson } from '../../../core/schemas/jobs.js';
export type { RunnerJson } from '../../../core/schemas/runners.js';
export type {
  DeliveryJson,
  NotificationChoiceJson,
  WebhookJson,
} from '../../../core/schemas/notifications.js';

export interface JobLogJson {
  readonly position: number;
  readonly attempt: number;
  readonly text: string;
  readonly created: string;
}
