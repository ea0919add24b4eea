import { useState } from 'preact/hooks';
import { api, segment } from '../../api/client.js';
import type { BranchJson, MeasureJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Pager } from '../../components/pager.js';
import { SearchBox } from '../../components/search-box.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDate, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';
import { DimensionLink } from '../../components/dimension-link.js';

export const DIMENSIONS = {
  branches: { title: 'Branches', one: 'branch' },
  testbeds: { title: 'Testbeds', one: 'testbed' },
  benchmarks: { title: 'Benchmarks', one: 'benchmark' },
  measures: { title: 'Measures', one: 'measure' },
} as const;
export type DimensionKind = keyof typeof DIMENSIONS;

type Row = BranchJson | MeasureJson | (Omit<MeasureJson, 'units'> & { units?: undefined });
const PER_PAGE = 50;

/**
 * Branches, testbeds, benchmarks or measures, with archive and unarchive (spec: States and transitions).
 * Archived ones are listed only on request; the choice, the search and the page live in the URL.
 */
export function DimensionList({ ctx, kind }: { ctx: ProjectContext; kind: DimensionKind }) {
  const { query } = useLocation();
  const archived = query.get('archived') === 'true';
  const search = query.get('search') ?? '';
  const page = Number(query.get('page') ?? '1') || 1;
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setQuery(next);
  };
  const path = `${ctx.path}/${kind}`;
  const list = useApi(
    (signal) =>
      api.list<Row>(
        path,
        { per_page: PER_PAGE, page, search, sort: 'name', ...(archived ? { archived: true } : {}) },
        signal,
      ),
    [path, archived, search, page],
  );
  const [done, setDone] = useState('');
  const { title, one } = DIMENSIONS[kind];
  return (
    <section>
      <PageHeader title={archived ? `Archived ${title.toLowerCase()}` : title} />
      <div class="toolbar">
        <SearchBox
          label={`Search ${title.toLowerCase()}`}
          value={search}
          onChange={(s) => update({ search: s, page: '' })}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={archived}
            onChange={(e) => update({ archived: e.currentTarget.checked ? 'true' : '', page: '' })}
          />
          Show archived {title.toLowerCase()} instead
        </label>
      </div>
      {done && (
        <p role="status" class="success">
          {done}
        </p>
      )}
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.data.length === 0 && (
        <Empty
          title={
            search
              ? `No ${archived ? 'archived ' : ''}${one} matches “${search}”.`
              : archived
                ? `No archived ${title.toLowerCase()}.`
                : `No ${title.toLowerCase()} yet.`
          }
        >
          {!archived && !search && 'They are created by the reports a run submits.'}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Slug</th>
                  {kind === 'measures' && <th scope="col">Units</th>}
                  {kind === 'measures' && <th scope="col">Better</th>}
                  {kind === 'branches' && <th scope="col">Latest version</th>}
                  <th scope="col">Created</th>
                  {ctx.canEdit && (
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((row) => (
                  <tr key={row.uuid}>
                    <td>
                      {kind === 'measures' ? row.name : <DimensionLink ctx={ctx} kind={kind} of={row} />}
                    </td>
                    <td class="mono">{row.slug}</td>
                    {kind === 'measures' && <td>{(row as MeasureJson).units}</td>}
                    {kind === 'measures' && (
                      <td>
                        <Direction
                          measure={row as MeasureJson}
                          canEdit={ctx.canEdit}
                          onChange={async (direction) => {
                            await api.patch(`${path}/${segment(row.uuid)}`, { direction });
                            setDone(`${row.name}: ${DIRECTIONS[direction ?? '']}.`);
                            list.reload();
                          }}
                        />
                      </td>
                    )}
                    {kind === 'branches' && <td>{versionText(row as BranchJson)}</td>}
                    <td>{formatDate(row.created)}</td>
                    {ctx.canEdit && (
                      <td>
                        <ActionButton
                          label={`${row.archived ? 'Unarchive' : 'Archive'} ${row.name}`}
                          action={async () => {
                            await api.patch(`${path}/${segment(row.uuid)}`, { archived: !row.archived });
                            setDone(`${row.name} ${row.archived ? 'unarchived' : 'archived'}.`);
                            list.reload();
                          }}
                        >
                          {row.archived ? 'Unarchive' : 'Archive'}
                        </ActionButton>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data.total}
            onPage={(p) => update({ page: String(p) })}
          />
        </>
      )}
    </section>
  );
}

const DIRECTIONS: Record<string, string> = {
  lower_is_better: 'lower is better',
  higher_is_better: 'higher is better',
  '': 'no direction declared',
};

/**
 * Which way a measure gets better, which decides whether a change is a regression or an improvement; editors
 * change it in place (none: the side a one-sided threshold guards is the worse one, else an increase).
 */
function Direction({
  measure,
  canEdit,
  onChange,
}: {
  measure: MeasureJson;
  canEdit: boolean;
  onChange: (direction: MeasureJson['direction']) => Promise<void>;
}) {
  const [error, setError] = useState<Error>();
  if (!canEdit) return <>{DIRECTIONS[measure.direction ?? '']}</>;
  return (
    <>
      <select
        aria-label={`Which way ${measure.name} is better`}
        value={measure.direction ?? ''}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setError(undefined);
          onChange(value === '' ? null : (value as MeasureJson['direction'])).catch((failure: unknown) =>
            setError(failure instanceof Error ? failure : new Error(String(failure))),
          );
        }}
      >
        {Object.entries(DIRECTIONS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <ErrorMessage error={error} />
    </>
  );
}

function versionText(branch: BranchJson): string {
  const version = branch.head.version;
  return version ? `#${version.number} ${shortHash(version.hash)}` : '—';
}
