import type { ComponentChildren, JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { Runners } from './pages/admin/runners.js';
import { ServerStats } from './pages/admin/stats.js';
import { Confirm } from './pages/auth/confirm.js';
import { GitHubCallback } from './pages/auth/github.js';
import { Invite } from './pages/auth/invite.js';
import { Login, Signup } from './pages/auth/login.js';
import { Logout } from './pages/auth/logout.js';
import { NotFound } from './pages/not-found.js';
import { Organization } from './pages/orgs/organization.js';
import { OrganizationMembers } from './pages/orgs/members.js';
import { OrganizationSettings } from './pages/orgs/settings.js';
import { Organizations } from './pages/orgs/organizations.js';
import { ProjectPages } from './pages/project/project-pages.js';
import { Projects } from './pages/projects.js';
import { Account } from './pages/user/account.js';
import { TokenAdd } from './pages/user/token-add.js';
import { Tokens } from './pages/user/tokens.js';
import { Unsubscribe } from './pages/user/unsubscribe.js';
import { setTitleScope } from './components/status.js';
import { match, navigate, type Location } from './router.js';
import type { Session } from './session.js';

type Params = Record<string, string>;
interface Route {
  readonly pattern: string;
  /** Needs a session; a visitor without one is sent on by `anonymous`. */
  readonly console?: boolean;
  readonly render: (params: Params, location: Location) => JSX.Element;
}

/** Project pages share one frame (project header and tabs) at /console/projects/:project/... and /perf/:project/... */
const projectRoutes = (prefix: string, isConsole: boolean): Route[] =>
  ['', '/:tab', '/:tab/:item'].map((rest) => ({
    pattern: `${prefix}${rest}`,
    console: isConsole,
    render: (params) => (
      <ProjectPages
        project={params.project!}
        tab={params.tab ?? (isConsole ? '' : 'perf')}
        item={params.item}
        console={isConsole}
      />
    ),
  }));

const routes: Route[] = [
  { pattern: '/auth/signup', render: () => <Signup /> },
  { pattern: '/auth/login', render: () => <Login /> },
  { pattern: '/auth/confirm', render: () => <Confirm /> },
  { pattern: '/auth/github', render: () => <GitHubCallback /> },
  { pattern: '/auth/invite', render: () => <Invite /> },
  { pattern: '/auth/logout', render: () => <Logout /> },
  { pattern: '/notifications/unsubscribe', render: () => <Unsubscribe /> },
  { pattern: '/projects', render: () => <Projects console={false} /> },
  ...projectRoutes('/perf/:project', false),
  { pattern: '/console/projects', console: true, render: () => <Projects console={true} /> },
  ...projectRoutes('/console/projects/:project', true),
  { pattern: '/console/organizations', console: true, render: () => <Organizations /> },
  { pattern: '/console/organizations/:org', console: true, render: (p) => <Organization org={p.org!} /> },
  {
    pattern: '/console/organizations/:org/members',
    console: true,
    render: (p) => <OrganizationMembers org={p.org!} />,
  },
  {
    pattern: '/console/organizations/:org/settings',
    console: true,
    render: (p) => <OrganizationSettings org={p.org!} />,
  },
  { pattern: '/console/admin/stats', console: true, render: () => <ServerStats /> },
  { pattern: '/console/runners', console: true, render: () => <Runners /> },
  { pattern: '/console/users/:user/tokens', console: true, render: (p) => <Tokens user={p.user!} /> },
  { pattern: '/console/users/:user/tokens/add', console: true, render: (p) => <TokenAdd user={p.user!} /> },
  { pattern: '/console/users/:user/settings', console: true, render: (p) => <Account user={p.user!} /> },
];

function Redirect({ to }: { to: string }): null {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/**
 * Where a visitor without a session goes from a console link (spec: Authentication 7): a project's console
 * page becomes its public page (the perf page keeps the whole selection), anything else asks to log in.
 */
export function anonymousTarget(location: Location): string {
  const project =
    match('/console/projects/:project', location.path) ??
    match('/console/projects/:project/:tab', location.path);
  if (project) {
    const tab = project.tab && project.tab !== 'perf' && project.tab !== 'settings' ? `/${project.tab}` : '';
    // The query as it came (commas unescaped), so the public page shows the same selection.
    const search = project.tab === 'perf' ? location.href.slice(location.path.length) : '';
    return `/perf/${encodeURIComponent(project.project!)}${tab}${search}`;
  }
  const deeper = /^\/console\/projects\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(location.path);
  if (deeper) return `/perf/${deeper[1]}/${deeper[2]}/${deeper[3]}`;
  return `/auth/login?next=${encodeURIComponent(location.href)}`;
}

export function Routes({
  location,
  session,
}: {
  location: Location;
  session: Session | null;
}): ComponentChildren {
  setTitleScope('');
  if (location.path === '/' || location.path === '/console') {
    return <Redirect to={session ? '/console/projects' : '/projects'} />;
  }
  for (const route of routes) {
    const params = match(route.pattern, location.path);
    if (!params) continue;
    if (route.console && !session) return <Redirect to={anonymousTarget(location)} />;
    return route.render(params, location);
  }
  return <NotFound />;
}
