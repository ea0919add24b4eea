import 'reflect-metadata';
import {
  container as rootContainer,
  instanceCachingFactory,
  type DependencyContainer,
  type InjectionToken,
} from 'tsyringe';
import {
  AlertsService,
  ApiTokensService,
  AuthService,
  CodehostService,
  Backups,
  DimensionsService,
  MembersService,
  OrganizationsService,
  PerfChangesService,
  PerfService,
  PlotsService,
  ProjectsService,
  RegressionAnalyzer,
  RegressionsService,
  ReportsService,
  ThresholdsService,
  Tokens,
  UsersService,
  UsageService,
  StatsService,
  JobLeases,
  JobSignal,
  JobsService,
  RunnersService,
  NotificationChoicesService,
  NotificationDispatcher,
  NotificationSignal,
  WebhooksService,
  DELIVERY_TIMING,
  type DeliveryTiming,
  type Config,
  type Logger,
  type Mailer,
  type PluginRegistry,
  type ReplicationService,
  type ServiceContext,
  type Storage,
  type WorkLimit,
} from '../core/index.js';
import { computeBoundaries } from '../workers/compute-boundaries.js';
import { detectInPool } from '../workers/detect-changes.js';
import { shapePerf } from '../workers/shape-perf.js';
import { renderPlotImage } from '../workers/render-image.js';
import type { WorkerPool } from '../workers/pool.js';
import { Authenticator } from './auth.js';
import { defaultHeavyLimit, PendingAnswers, type PendingAnswersOptions } from './heavy-requests.js';
import { createMailer } from './mail.js';
import { AttemptLimiter, FailureLimiter, MemoryCounts, sharedCounts } from './rate-limit.js';
import { webhookSender, type Resolver } from './webhook-sender.js';

// Typed tokens of the parts a composition root provides (the services are registered under their classes).
/** The running configuration; `PUT /v0/server/config` replaces `current` (readers see it as a LiveConfig). */
export interface RunningConfig {
  current: Config;
}
export const CONFIG: InjectionToken<RunningConfig> = Symbol('RunningConfig');
export const LOGGER: InjectionToken<Logger> = Symbol('Logger');
export const REGISTRY: InjectionToken<PluginRegistry> = Symbol('PluginRegistry');
export const STORAGE: InjectionToken<Storage> = Symbol('Storage');
export const POOL: InjectionToken<WorkerPool> = Symbol('WorkerPool');
export const MAILER: InjectionToken<Mailer> = Symbol('Mailer');
export const CLOCK: InjectionToken<() => Date> = Symbol('Clock');
/** Bounds heavy requests in flight for the whole process (server/heavy-requests.ts has the defaults). */
export const HEAVY_LIMIT: InjectionToken<WorkLimit> = Symbol('HeavyLimit');
/** Built heavy answers still being written, and the connections that stall them (server/heavy-requests.ts). */
export const PENDING_ANSWERS: InjectionToken<PendingAnswers> = Symbol('PendingAnswers');
/** Sign-up, login and invitation attempts per client address (each may send an e-mail). */
export const ATTEMPTS: InjectionToken<AttemptLimiter> = Symbol('Attempts');
/** Failed credentials (tokens, e-mailed links) per client address and per credential. */
export const FAILURES: InjectionToken<FailureLimiter> = Symbol('Failures');
export const SERVICE_CONTEXT: InjectionToken<ServiceContext> = Symbol('ServiceContext');
export const REPLICATION: InjectionToken<ReplicationService> = Symbol('Replication');

/** The parts of the API a composition root provides; those left out get their defaults. */
export interface ApiParts {
  readonly config: RunningConfig;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  /** `plus.disaster_recovery` (with no replica when the configuration has none). */
  readonly replication: ReplicationService;
  /** SMTP or the log, as the configuration says, by default. */
  readonly mailer?: Mailer;
  readonly now?: () => Date;
  readonly heavyLimit?: WorkLimit;
  readonly pendingAnswers?: PendingAnswersOptions;
  /** Authentication attempts and failures per client address (or credential) per minute; 32 by default. */
  readonly authAttemptsPerMinute?: number;
  /** How notification deliveries are paced (core's DELIVERY_TIMING by default). */
  readonly deliveryTiming?: DeliveryTiming;
  /** How webhook host names are resolved (the system resolver by default). */
  readonly webhookResolver?: Resolver;
  /** How long database.data_store may go without answering or moving a byte (30 s by default). */
  readonly storeStallMs?: number;
}

const SERVICES = [
  AuthService,
  UsersService,
  ApiTokensService,
  OrganizationsService,
  MembersService,
  ProjectsService,
  DimensionsService,
  ThresholdsService,
  AlertsService,
  RegressionsService,
  PerfService,
  PerfChangesService,
  UsageService,
  StatsService,
] as const;

/**
 * The API's dependency container: the parts as values, and every service, limiter and the authenticator as a
 * singleton built on first use from what it needs. One container lives as long as the process, so a listener
 * restart (PUT /v0/server/config) keeps the services, their caches and the limiters' counts.
 */
export function createApiContainer(parts: ApiParts): DependencyContainer {
  const c = rootContainer.createChildContainer();
  const value = <T>(token: InjectionToken<T>, useValue: T) => c.register(token, { useValue });
  const single = <T>(token: InjectionToken<T>, make: (c: DependencyContainer) => T) =>
    c.register(token, { useFactory: instanceCachingFactory(make) });

  value(CONFIG, parts.config);
  value(LOGGER, parts.logger);
  value(REGISTRY, parts.registry);
  value(STORAGE, parts.storage);
  value(POOL, parts.pool);
  value(REPLICATION, parts.replication);
  value(CLOCK, parts.now ?? (() => new Date()));
  value(HEAVY_LIMIT, parts.heavyLimit ?? defaultHeavyLimit());
  single(
    PENDING_ANSWERS,
    () =>
      new PendingAnswers(parts.pendingAnswers, (response, stallMs) =>
        parts.logger.warn(
          { url: response.req.url, stall_ms: stallMs },
          'connection closed: its client read nothing of a heavy answer for too long',
        ),
      ),
  );
  single(MAILER, () => parts.mailer ?? createMailer(parts.config, parts.logger));
  const perMinute = parts.authAttemptsPerMinute ?? 32;
  // several API processes on one database share the counts there, so the limits hold for all of them together
  const counts = (name: string) =>
    parts.storage.counters ? sharedCounts(parts.storage.counters, name) : new MemoryCounts();
  single(ATTEMPTS, () => new AttemptLimiter(perMinute, counts('attempts')));
  single(FAILURES, () => new FailureLimiter(new AttemptLimiter(perMinute, counts('failures'))));
  single(Tokens, (c) => new Tokens(c.resolve(CONFIG), c.resolve(CLOCK)));
  single(SERVICE_CONTEXT, (c): ServiceContext => {
    const pool = c.resolve(POOL);
    return {
      storage: c.resolve(STORAGE),
      tokens: c.resolve(Tokens),
      mailer: c.resolve(MAILER),
      config: c.resolve(CONFIG),
      logger: c.resolve(LOGGER),
      registry: c.resolve(REGISTRY),
      boundaries: (job) => computeBoundaries(pool, job),
      perfShaper: (input, format) => shapePerf(pool, input, format),
      renderImage: (input) => renderPlotImage(pool, input),
      changePoints: (job) => detectInPool(pool, job),
      now: c.resolve(CLOCK),
    };
  });
  for (const Service of SERVICES as readonly (new (ctx: ServiceContext) => object)[])
    single(Service, (c) => new Service(c.resolve(SERVICE_CONTEXT)));
  single(RegressionAnalyzer, (c) => new RegressionAnalyzer(c.resolve(SERVICE_CONTEXT)));
  single(
    ReportsService,
    (c) => new ReportsService(c.resolve(SERVICE_CONTEXT), c.resolve(RegressionAnalyzer)),
  );
  single(Backups, (c) => new Backups(c.resolve(STORAGE), c.resolve(LOGGER), parts.storeStallMs));
  // one signal per process: a job queued through one service wakes the claims waiting in another
  single(JobSignal, () => new JobSignal());
  single(RunnersService, (c) => new RunnersService(c.resolve(SERVICE_CONTEXT), c.resolve(JobSignal)));
  single(JobsService, (c) => new JobsService(c.resolve(SERVICE_CONTEXT), c.resolve(JobSignal)));
  single(JobLeases, (c) => new JobLeases(c.resolve(SERVICE_CONTEXT), c.resolve(JobSignal)));
  // one signal per process: whatever puts a notification in the outbox here wakes this process's delivery loop
  single(NotificationSignal, (c) => {
    const signal = new NotificationSignal();
    const wake = () => signal.notify();
    c.resolve(RegressionAnalyzer).onChanges(wake);
    c.resolve(RegressionsService).onChanges(wake);
    return signal;
  });
  single(
    WebhooksService,
    (c) => new WebhooksService(c.resolve(SERVICE_CONTEXT), c.resolve(NotificationSignal)),
  );
  single(NotificationChoicesService, (c) => new NotificationChoicesService(c.resolve(SERVICE_CONTEXT)));
  single(
    NotificationDispatcher,
    (c) =>
      new NotificationDispatcher(
        c.resolve(SERVICE_CONTEXT),
        webhookSender(parts.webhookResolver),
        parts.deliveryTiming ?? DELIVERY_TIMING,
      ),
  );
  single(PlotsService, (c) => new PlotsService(c.resolve(SERVICE_CONTEXT), c.resolve(PerfService)));
  single(CodehostService, (c) => new CodehostService(c.resolve(SERVICE_CONTEXT), c.resolve(AuthService)));
  single(
    Authenticator,
    (c) =>
      new Authenticator(
        c.resolve(STORAGE),
        c.resolve(Tokens),
        c.resolve(ApiTokensService),
        c.resolve(RunnersService),
        c.resolve(FAILURES),
      ),
  );
  return c;
}
