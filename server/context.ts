import type { FastifyReply } from 'fastify';
import {
  AlertsService,
  ApiTokensService,
  AuthService,
  DimensionsService,
  MembersService,
  OrganizationsService,
  PerfChangesService,
  PerfService,
  PlotsService,
  ProjectsService,
  ReportsService,
  ThresholdsService,
  Tokens,
  UsersService,
  type ServiceContext,
} from '../core/index.js';
import { computeBoundaries } from '../workers/boundaries.js';
import { detectInPool } from '../workers/change-points.js';
import { shapePerf } from '../workers/perf-shape.js';
import { renderPlotImage } from '../workers/plot-image.js';
import { Authenticator } from './auth.js';
import { defaultHeavyLimit, holdHeavyPlace } from './heavy-requests.js';
import type { AppDependencies } from './dependencies.js';
import { createMailer } from './mail.js';
import { AttemptLimiter, FailureLimiter } from './rate-limit.js';

/** Services and request helpers shared by the route modules. */
export interface RouteContext {
  readonly deps: AppDependencies;
  readonly auth: Authenticator;
  /** Sign-up, login and invitation attempts per client address (each may send an e-mail). */
  readonly attempts: AttemptLimiter;
  /** Failed credentials (tokens, e-mailed links) per client address and per credential. */
  readonly failures: FailureLimiter;
  readonly accounts: AuthService;
  readonly users: UsersService;
  readonly apiTokens: ApiTokensService;
  readonly organizations: OrganizationsService;
  readonly members: MembersService;
  readonly projects: ProjectsService;
  readonly dimensions: DimensionsService;
  readonly thresholds: ThresholdsService;
  readonly reports: ReportsService;
  readonly alerts: AlertsService;
  readonly perf: PerfService;
  readonly changes: PerfChangesService;
  readonly plots: PlotsService;
  /** The context the services share (for functions that are not services). */
  readonly services: ServiceContext;
  /** preHandler of heavy routes: holds a place in the heavy-request limit until the answer is sent. */
  readonly heavy: ReturnType<typeof holdHeavyPlace>;
}

export function createRouteContext(deps: AppDependencies): RouteContext {
  const now = deps.now ?? (() => new Date());
  const tokens = new Tokens(deps.config, now);
  const services: ServiceContext = {
    storage: deps.storage,
    tokens,
    mailer: deps.mailer ?? createMailer(deps.config, deps.logger),
    config: deps.config,
    logger: deps.logger,
    registry: deps.registry,
    boundaries: (job) => computeBoundaries(deps.pool, job),
    perfShaper: (input, format) => shapePerf(deps.pool, input, format),
    renderImage: (input) => renderPlotImage(deps.pool, input),
    changePoints: (job) => detectInPool(deps.pool, job),
    now,
  };
  const apiTokens = new ApiTokensService(services);
  const perf = new PerfService(services);
  const limit = deps.authAttemptsPerMinute ?? 32;
  const failures = new FailureLimiter(new AttemptLimiter(limit));
  return {
    deps,
    auth: new Authenticator(deps.storage, tokens, apiTokens, failures),
    attempts: new AttemptLimiter(limit),
    failures,
    accounts: new AuthService(services),
    users: new UsersService(services),
    apiTokens,
    organizations: new OrganizationsService(services),
    members: new MembersService(services),
    projects: new ProjectsService(services),
    dimensions: new DimensionsService(services),
    thresholds: new ThresholdsService(services),
    reports: new ReportsService(services),
    alerts: new AlertsService(services),
    perf,
    changes: new PerfChangesService(services),
    plots: new PlotsService(services, perf),
    services,
    heavy: holdHeavyPlace(deps.heavyLimit ?? defaultHeavyLimit()),
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
