import type { FastifyReply } from 'fastify';
import type { DependencyContainer } from 'tsyringe';
import {
  AlertsService,
  ApiTokensService,
  AuthService,
  Backups,
  DimensionsService,
  MembersService,
  OrganizationsService,
  PerfChangesService,
  PerfService,
  PlotsService,
  ProjectsService,
  RegressionsService,
  ReportsService,
  ThresholdsService,
  StatsService,
  CodehostService,
  UsageService,
  UsersService,
  JobLeases,
  JobsService,
  RunnersService,
  WebhooksService,
  NotificationChoicesService,
  type LiveConfig,
  type ReplicationService,
  type ServiceContext,
} from '../core/index.js';
import type { WorkerPool } from '../workers/pool.js';
import {
  ATTEMPTS,
  CONFIG,
  FAILURES,
  HEAVY_LIMIT,
  PENDING_ANSWERS,
  POOL,
  REPLICATION,
  SERVICE_CONTEXT,
} from './container.js';
import { holdHeavyPlace } from './heavy-requests.js';
import type { AttemptLimiter, FailureLimiter } from './rate-limit.js';

/** Validates, saves and applies a new configuration document; `confirmed` lists the keys it may leave out. */
export type Reconfigure = (
  document: unknown,
  confirmed: readonly string[],
) => Promise<{ config: unknown; pendingRestart: readonly string[] }>;

/** What the route modules use: the services of the container, resolved once per application. */
export interface RouteContext {
  readonly config: LiveConfig;
  /** Absent when the application is built without a runtime (tests of the HTTP shell). */
  readonly reconfigure: Reconfigure | undefined;
  readonly attempts: AttemptLimiter;
  readonly failures: FailureLimiter;
  readonly accounts: AuthService;
  readonly users: UsersService;
  readonly apiTokens: ApiTokensService;
  readonly organizations: OrganizationsService;
  readonly usage: UsageService;
  readonly stats: StatsService;
  readonly codehost: CodehostService;
  readonly members: MembersService;
  readonly projects: ProjectsService;
  readonly dimensions: DimensionsService;
  readonly thresholds: ThresholdsService;
  readonly reports: ReportsService;
  readonly alerts: AlertsService;
  readonly regressions: RegressionsService;
  readonly perf: PerfService;
  readonly changes: PerfChangesService;
  readonly plots: PlotsService;
  readonly backups: Backups;
  readonly runners: RunnersService;
  readonly jobs: JobsService;
  readonly leases: JobLeases;
  readonly webhooks: WebhooksService;
  readonly choices: NotificationChoicesService;
  readonly replication: ReplicationService;
  /** The context the services share (for functions that are not services). */
  readonly services: ServiceContext;
  readonly pool: WorkerPool;
  /** preHandler of heavy routes: holds a place in the heavy-request limit until the answer is sent. */
  readonly heavy: ReturnType<typeof holdHeavyPlace>;
}

export function routeContext(container: DependencyContainer, reconfigure?: Reconfigure): RouteContext {
  const get = container.resolve.bind(container);
  return {
    config: get(CONFIG),
    reconfigure,
    attempts: get(ATTEMPTS),
    failures: get(FAILURES),
    accounts: get(AuthService),
    users: get(UsersService),
    apiTokens: get(ApiTokensService),
    organizations: get(OrganizationsService),
    usage: get(UsageService),
    stats: get(StatsService),
    codehost: get(CodehostService),
    members: get(MembersService),
    projects: get(ProjectsService),
    dimensions: get(DimensionsService),
    thresholds: get(ThresholdsService),
    reports: get(ReportsService),
    alerts: get(AlertsService),
    regressions: get(RegressionsService),
    perf: get(PerfService),
    changes: get(PerfChangesService),
    plots: get(PlotsService),
    backups: get(Backups),
    runners: get(RunnersService),
    jobs: get(JobsService),
    leases: get(JobLeases),
    webhooks: get(WebhooksService),
    choices: get(NotificationChoicesService),
    replication: get(REPLICATION),
    services: get(SERVICE_CONTEXT),
    pool: get(POOL),
    heavy: holdHeavyPlace(get(HEAVY_LIMIT), get(PENDING_ANSWERS)),
  };
}

/** Sends one page of a list with `X-Total-Count` set to the total before pagination. */
export function sendPage<T>(reply: FastifyReply, page: { items: T[]; total: number }): T[] {
  reply.header('X-Total-Count', String(page.total));
  return page.items;
}

/** Maps the common list query to repository list options. */
export function listOptions<S extends string>(query: {
  per_page: number;
  page: number;
  sort: S;
  direction: 'asc' | 'desc';
  search?: string | undefined;
  name?: string | undefined;
}) {
  return {
    perPage: query.per_page,
    page: query.page,
    sort: query.sort,
    direction: query.direction,
    ...(query.search ? { search: query.search } : {}),
    ...(query.name ? { name: query.name } : {}),
  };
}
