import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { ProjectJson } from '../api/types.js';
import { Pager } from '../components/pager.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../components/status.js';
import { useApi } from '../lib/use-api.js';
import { SearchBox } from '../components/search-box.js';
import { ProjectCard } from '../components/project-card.js';
import { FirstRun } from './first-run.js';

const PER_PAGE = 25;

/** Projects the caller may see: public ones, and private ones of the caller's organizations. */
export function Projects({ console }: { console: boolean }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useApi(
    (signal) =>
      api.list<ProjectJson>(
        '/projects',
        { per_page: PER_PAGE, page, search, sort: 'name', summary: true },
        signal,
      ),
    [search, page],
  );
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
              <ProjectCard key={p.uuid} project={p} console={console} />
            ))}
          </ul>
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
