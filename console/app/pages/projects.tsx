import { useState } from 'preact/hooks';
import { api, segment } from '../api/client.js';
import type { ProjectJson } from '../api/types.js';
import { Pager } from '../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../components/status.js';
import { formatDate } from '../lib/format.js';
import { useApi } from '../lib/use-api.js';
import { SearchBox } from '../components/search-box.js';
import { FirstRun } from './first-run.js';

const PER_PAGE = 25;

/** Projects the caller may see: public ones, and private ones of the caller's organizations. */
export function Projects({ console }: { console: boolean }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useApi(
    (signal) =>
      api.list<ProjectJson>('/projects', { per_page: PER_PAGE, page, search, sort: 'name' }, signal),
    [search, page],
  );
  const base = (p: ProjectJson) =>
    console ? `/console/projects/${segment(p.slug)}` : `/perf/${segment(p.slug)}`;
  return (
    <section>
      <PageHeader title={console ? 'Projects' : 'Public projects'}>
        {console && (
          <a class="button primary" href="/console/organizations">
            New project
          </a>
        )}
      </PageHeader>
      {console && <FirstRun />}
      <SearchBox label="Search projects" value={search} onChange={(s) => (setSearch(s), setPage(1))} />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.data.length === 0 && (
        <Empty title={search ? `No project matches “${search}”.` : 'No projects yet.'}>
          {console
            ? 'Create one in an organization, or submit a run with the benchtrack CLI: a run creates its project.'
            : 'Log in to see private projects.'}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class="cards">
            {list.data.data.map((p) => (
              <li key={p.uuid} class="card">
                <a href={base(p)} class="card-title">
                  {p.name}
                </a>
                <span class={`badge ${p.visibility}`}>{p.visibility}</span>
                <p class="muted">
                  {p.slug} · since {formatDate(p.created)}
                  {p.url && (
                    <>
                      {' · '}
                      <a href={p.url} rel="noopener noreferrer" target="_blank">
                        {p.url}
                      </a>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ul>
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
