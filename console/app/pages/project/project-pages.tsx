import { api, segment } from '../../api/client.js';
import type { ProjectJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading, setTitleScope } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';
import { Explorer } from '../../perf/explorer.js';
import { Job, Jobs } from './jobs.js';
import { useLocation } from '../../router.js';
import { useSession } from '../../session.js';
import { Alert } from './alert.js';
import { Alerts } from './alerts.js';
import { tabHref, type ProjectContext } from './context.js';
import { DimensionPage } from './dimension.js';
import { DimensionList, DIMENSIONS, type DimensionKind } from './dimensions.js';
import { Plots } from './plots.js';
import { RegressionPage } from './regression.js';
import { Regressions } from './regressions.js';
import { Report } from './report.js';
import { Reports } from './reports.js';
import { ProjectSettings } from './settings.js';
import { Threshold } from './threshold.js';
import { ThresholdNew } from './threshold-new.js';
import { Thresholds } from './thresholds.js';

const TABS: [string, string][] = [
  ['regressions', 'Regressions'],
  ['perf', 'Perf'],
  ['plots', 'Dashboard'],
  ['reports', 'Reports'],
  ['alerts', 'Alerts'],
  ['jobs', 'Jobs'],
  ['branches', 'Branches'],
  ['testbeds', 'Testbeds'],
  ['benchmarks', 'Benchmarks'],
  ['measures', 'Measures'],
  ['thresholds', 'Thresholds'],
];

function Page({ ctx, tab, item }: { ctx: ProjectContext; tab: string; item: string | undefined }) {
  if (tab === 'perf' && !item) return <Explorer ctx={ctx} />;
  if (tab === 'plots' && !item) return <Plots ctx={ctx} />;
  if (tab === 'reports') return item ? <Report ctx={ctx} uuid={item} /> : <Reports ctx={ctx} />;
  if (tab === 'regressions')
    return item ? <RegressionPage ctx={ctx} uuid={item} /> : <Regressions ctx={ctx} />;
  if (tab === 'alerts') return item ? <Alert ctx={ctx} uuid={item} /> : <Alerts ctx={ctx} />;
  if (tab === 'jobs') return item ? <Job ctx={ctx} uuid={item} /> : <Jobs ctx={ctx} />;
  if (tab in DIMENSIONS && !item) return <DimensionList ctx={ctx} kind={tab as DimensionKind} />;
  if ((tab === 'branches' || tab === 'testbeds' || tab === 'benchmarks') && item)
    return <DimensionPage ctx={ctx} kind={tab} item={item} />;
  if (tab === 'thresholds') {
    if (!item) return <Thresholds ctx={ctx} />;
    return item === 'add' ? <ThresholdNew ctx={ctx} /> : <Threshold ctx={ctx} uuid={item} />;
  }
  if (tab === 'settings' && !item && ctx.console) return <ProjectSettings ctx={ctx} />;
  return <Empty title="There is no such page in this project." />;
}

/** The frame of every project page: the project, the caller's right to change it, and the tabs. */
export function ProjectPages({
  project,
  tab: given,
  item,
  console,
}: {
  project: string;
  tab: string;
  item: string | undefined;
  console: boolean;
}) {
  const session = useSession();
  const { href } = useLocation();
  // a console project opens on what needs triage; its public page on the plots
  const tab = given || (console ? 'regressions' : 'perf');
  const path = `/projects/${segment(project)}`;
  const loaded = useApi(
    async (signal) => {
      const data = await api.get<ProjectJson>(path, {}, signal);
      const allowed = session
        ? await api
            .get<{ allowed: boolean }>(`${path}/allowed/edit`, {}, signal)
            .catch(() => ({ allowed: false }))
        : { allowed: false };
      return { project: data, canEdit: allowed.allowed };
    },
    [project, session?.token],
  );
  // each page's title names the page, then the project (set here, before the page renders)
  setTitleScope(loaded.data?.project.name ?? project);
  if (loaded.error) {
    return (
      <section>
        <ErrorMessage error={loaded.error} />
        {!session && (
          <p>
            A private project is visible only to its members:{' '}
            <a href={`/auth/login?next=${encodeURIComponent(href)}`}>log in</a>.
          </p>
        )}
      </section>
    );
  }
  if (!loaded.data) return <Loading what="Loading the project" />;
  const { project: data, canEdit } = loaded.data;
  const ctx: ProjectContext = {
    project: data,
    base: console ? `/console/projects/${segment(data.slug)}` : `/perf/${segment(data.slug)}`,
    path: `/projects/${segment(data.slug)}`,
    canEdit,
    console,
    reload: loaded.reload,
  };
  const tabs = console && canEdit ? [...TABS, ['settings', 'Settings'] as [string, string]] : TABS;
  return (
    <div class="project">
      <div class="project-header">
        <div>
          <span class="project-name">{data.name}</span>{' '}
          <span class={`badge ${data.visibility}`}>{data.visibility}</span>
          {data.url && (
            <a class="muted project-url" href={data.url} rel="noopener noreferrer" target="_blank">
              {data.url}
            </a>
          )}
        </div>
        {console && data.visibility === 'public' && (
          <a class="muted" href={`/perf/${segment(data.slug)}`}>
            Public page
          </a>
        )}
        {!console && session && (
          <a class="muted" href={`/console/projects/${segment(data.slug)}/perf${location.search}`}>
            Open in the console
          </a>
        )}
      </div>
      <nav class="tabs" aria-label="Project">
        {tabs.map(([key, label]) => (
          <a key={key} href={tabHref(ctx, key)} aria-current={tab === key ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <Page ctx={ctx} tab={tab} item={item} />
    </div>
  );
}
