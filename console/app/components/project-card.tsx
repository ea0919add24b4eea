import { segment } from '../api/client.js';
import type { ProjectJson } from '../api/types.js';
import { formatAgo, formatDate, plural } from '../lib/format.js';

type Summary = NonNullable<ProjectJson['summary']>;

/** Reports per day as bars, today at the right; the tallest day fills the height. */
function Sparkline({ reports }: { reports: readonly number[] }) {
  const tallest = Math.max(1, ...reports);
  const total = reports.reduce((sum, n) => sum + n, 0);
  const width = 6;
  const height = 24;
  return (
    <svg
      class="sparkline"
      role="img"
      aria-label={`${plural(total, 'report')} over the last ${reports.length} days`}
      viewBox={`0 0 ${reports.length * width} ${height}`}
      width={reports.length * width}
      height={height}
      data-testid="sparkline"
    >
      {reports.map((n, i) => {
        const h = n === 0 ? 1 : Math.max(2, (n / tallest) * height);
        return (
          <rect
            key={i}
            x={i * width}
            y={height - h}
            width={width - 1}
            height={h}
            class={n ? 'day' : 'none'}
          />
        );
      })}
    </svg>
  );
}

function SummaryLine({ href, summary }: { href: string; summary: Summary }) {
  return (
    <div class="card-summary">
      <p class="muted">{summary.last_report ? `Last run ${formatAgo(summary.last_report)}` : 'No run yet'}</p>
      <p class="card-badges">
        {summary.regressions.open > 0 && (
          <a class="badge alert" href={`${href}/regressions`}>
            {plural(summary.regressions.open, 'open regression')}
          </a>
        )}
        {summary.alerts.active > 0 && (
          <a class="badge alert" href={`${href}/alerts`}>
            {plural(summary.alerts.active, 'active alert')}
          </a>
        )}
        {summary.regressions.open === 0 && summary.alerts.active === 0 && (
          <span class="muted">Nothing to triage</span>
        )}
      </p>
      <Sparkline reports={summary.reports} />
    </div>
  );
}

/**
 * A project in a list: its name and visibility, and with a summary (lists asked with summary=true) its last run,
 * what needs triage, and its runs per day over the last 30 days.
 */
export function ProjectCard({ project, console }: { project: ProjectJson; console: boolean }) {
  const href = console ? `/console/projects/${segment(project.slug)}` : `/perf/${segment(project.slug)}`;
  return (
    <li class="card" data-testid="project-card">
      <a href={href} class="card-title">
        {project.name}
      </a>{' '}
      <span class={`badge ${project.visibility}`}>{project.visibility}</span>
      <p class="muted">
        {project.slug} · since {formatDate(project.created)}
        {project.url && (
          <>
            {' · '}
            <a href={project.url} rel="noopener noreferrer" target="_blank">
              {project.url}
            </a>
          </>
        )}
      </p>
      {project.summary && <SummaryLine href={href} summary={project.summary} />}
    </li>
  );
}
