import { z } from 'zod';
import { PERMISSIONS, uuidSchema, type DimensionKind } from '../../core/index.js';

/**
 * The path parameters of every route, declared once, so the same `{project}` or `{user}` has the same rule and
 * the same description in every operation of the OpenAPI document.
 */
const slugRef = (what: string) => z.string().describe(`${what} UUID or slug`);
const uuidRef = (what: string) => uuidSchema.describe(`${what} UUID`);
const permission = z.enum(PERMISSIONS).describe('The permission to check');

export const organizationParams = z.object({ organization: slugRef('Organization') });
export const organizationPermissionParams = organizationParams.extend({ permission });
export const memberParams = organizationParams.extend({ user: slugRef('User') });

export const userParams = z.object({ user: slugRef('User') });
export const tokenParams = userParams.extend({ token: uuidRef('API token') });

export const projectParams = z.object({ project: slugRef('Project') });
export const projectPermissionParams = projectParams.extend({ permission });
export const thresholdParams = projectParams.extend({ threshold: uuidRef('Threshold') });
export const reportParams = projectParams.extend({ report: uuidRef('Report') });
export const alertParams = projectParams.extend({ alert: uuidRef('Alert') });
export const regressionParams = projectParams.extend({ regression: uuidRef('Regression') });
export const metricParams = projectParams.extend({ metric: uuidRef('Metric') });
export const plotParams = projectParams.extend({ plot: uuidRef('Plot') });

/** `{project}` and the dimension's own parameter (`{branch}`, `{testbed}`, ...), which also accepts a name. */
export function dimensionParams(kind: DimensionKind) {
  return projectParams.extend({ [kind]: z.string().describe(`${kind} UUID, slug or name`) });
}

export const runnerParams = z.object({ runner: slugRef('Runner') });
export const runnerJobParams = runnerParams.extend({ job: uuidRef('Job') });
export const jobParams = projectParams.extend({ job: uuidRef('Job') });
export const webhookParams = projectParams.extend({ webhook: uuidRef('Webhook') });
export const deliveryParams = webhookParams.extend({ delivery: uuidRef('Delivery') });
export const userProjectParams = userParams.extend({ project: slugRef('Project') });
