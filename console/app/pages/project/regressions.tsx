import { useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { DimensionLink } from '../../components/dimension-link.js';
import type { DimensionJson, MemberJson, RegressionCountsJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { Pager } from '../../components/pager.js';
import { SearchBox } from '../../components/search-box.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatNumber, plural } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { navigate, setQuery, useLocation } from '../../router.js';
import type { ProjectContext } from './context.js';
import {
  changeText,
  kindText,
  largestChange,
  rangeText,
  statusClass,
  triageKey,
  typing,
  type Regression,
  type TriageStatus,
} from './regression-text.js';

const PER_PAGE = 25;
/** The status filter's choices: the API's statuses, `open` for untriaged and acknowledged. */
const STATUSES = [
  ['open', 'Open', ['open']],
  ['suspected', 'Suspected', ['suspected']],
  ['closed', 'Closed', ['invalid', 'fixed', 'expected']],
  ['all', 'All', ['open', 'suspected', 'invalid', 'fixed', 'expected']],
] as const;
const DIMENSIONS = [
  ['branch', 'Branch', 'branches'],
  ['testbed', 'Testbed', 'testbeds'],
] as const;
const FILTERS = ['kind', 'branch', 'testbed', 'assignee', 'search'] as const;

/** What the last triage changed, so it can be undone. */
interface Change {
  readonly regression: Regression;
  readonly to: TriageStatus;
}

/** The project's branches and testbeds, and the members one may assign (none for a visitor). */
function useChoices(ctx: ProjectContext) {
  return useApi(
    async (signal) => {
      const [branch, testbed, members] = await Promise.all([
        ...DIMENSIONS.map(([, , path]) =>
          api
            .list<DimensionJson>(`${ctx.path}/${path}`, { per_page: 255, sort: 'name' }, signal)
            .then((r) => r.data),
        ),
        ctx.console
          ? api
              .list<MemberJson>(
                `/organizations/${ctx.project.organization}/members`,
                { per_page: 255 },
                signal,
              )
              .then((r) => r.data)
              .catch(() => [] as MemberJson[])
          : Promise.resolve([] as MemberJson[]),
      ]);
      return {
        branch: branch as DimensionJson[],
        testbed: testbed as DimensionJson[],
        members: members as MemberJson[],
      };
    },
    [ctx.path, ctx.console],
  );
}

/**
 * A project's regressions, the first stop of its console: one row per change (its commit range, how many series
 * moved, the largest change, the status), untriaged first, filtered and paged by the API with the filters in the
 * URL and each status's count; rows expand to their series. Keys: j and k move, Enter opens, x expands, and
 * members set the status with a (acknowledged), e (expected), i (invalid), f (fixed), u (untriaged again).
 */
export function Regressions({ ctx }: { ctx: ProjectContext }) {
  const { query } = useLocation();
  const status = STATUSES.find(([value]) => value === query.get('status')) ?? STATUSES[0];
  const page = Number(query.get('page') ?? '1') || 1;
  const filters = Object.fromEntries(FILTERS.map((key) => [key, query.get(key) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(changes)) {
      if (value && !(key === 'status' && value === 'open')) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setQuery(next);
  };
  const choices = useChoices(ctx);
  const filterQuery = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
  const key = JSON.stringify(filterQuery);
  const list = useApi(
    (signal) =>
      api.list<Regression>(
        `${ctx.path}/regressions`,
        { ...filterQuery, status: status[2].join(','), sort: 'status', per_page: PER_PAGE, page },
        signal,
      ),
    [ctx.path, status[0], key, page],
  );
  const counts = useApi(
    (signal) => api.get<RegressionCountsJson>(`${ctx.path}/regressions/counts`, filterQuery, signal),
    [ctx.path, key],
  );
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState(0);
  const [last, setLast] = useState<Change>();
  const [error, setError] = useState<Error>();
  const body = useRef<HTMLTableSectionElement>(null);
  const rows = list.data?.data ?? [];

  const triage = async (regression: Regression, to: TriageStatus, undoable = true) => {
    setError(undefined);
    try {
      await api.patch(`${ctx.path}/regressions/${regression.uuid}`, { status: to });
      setLast(undoable ? { regression, to } : undefined);
      list.reload();
      counts.reload();
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    }
  };
  const undo = async () => {
    if (!last) return;
    const before = last.regression.status;
    await triage(last.regression, before === 'suspected' ? 'untriaged' : before, false);
  };
  const toggle = (uuid: string) => {
    const next = new Set(open);
    if (!next.delete(uuid)) next.add(uuid);
    setOpen(next);
  };
  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    setSelected(clamped);
    body.current?.querySelector<HTMLElement>(`tr[data-index="${clamped}"]`)?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    if (typing(event) || event.metaKey || event.ctrlKey || event.altKey) return;
    const regression = rows[selected];
    const to = triageKey(event);
    if (event.key === 'j' || event.key === 'ArrowDown') focusRow(selected + 1);
    else if (event.key === 'k' || event.key === 'ArrowUp') focusRow(selected - 1);
    else if (regression && (event.key === 'Enter' || event.key === 'o')) {
      if ((event.target as HTMLElement).closest('a, button')) return;
      navigate(`${ctx.base}/regressions/${regression.uuid}`);
    } else if (regression && event.key === 'x') toggle(regression.uuid);
    else if (regression && to && ctx.canEdit && to !== regression.status) void triage(regression, to);
    else return;
    event.preventDefault();
  };

  return (
    <section onKeyDown={onKey}>
      <PageHeader title="Regressions" />
      <div class="segmented" role="group" aria-label="Show regressions">
        {STATUSES.map(([value, label, statuses]) => (
          <button
            key={value}
            type="button"
            aria-pressed={status[0] === value}
            onClick={() => update({ status: value })}
          >
            {label}
            {counts.data && (
              <span class="count" data-testid={`count-${value}`}>
                {' '}
                {statuses.reduce((sum, s) => sum + counts.data![s], 0).toLocaleString()}
              </span>
            )}
          </button>
        ))}
      </div>
      <div class="toolbar">
        <label class="field inline">
          <span class="label">Kind</span>
          <select value={filters.kind} onChange={(e) => update({ kind: e.currentTarget.value })}>
            <option value="">All</option>
            <option value="regression">Regressions</option>
            <option value="improvement">Improvements</option>
          </select>
        </label>
        {DIMENSIONS.map(([key, label]) => (
          <label key={key} class="field inline">
            <span class="label">{label}</span>
            <select value={filters[key]} onChange={(e) => update({ [key]: e.currentTarget.value })}>
              <option value="">All</option>
              {choices.data?.[key].map((d) => (
                <option key={d.uuid} value={d.slug}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        ))}
        {choices.data && choices.data.members.length > 0 && (
          <label class="field inline">
            <span class="label">Assignee</span>
            <select value={filters.assignee} onChange={(e) => update({ assignee: e.currentTarget.value })}>
              <option value="">Anyone</option>
              <option value="none">Nobody</option>
              {choices.data.members.map((m) => (
                <option key={m.uuid} value={m.slug}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <SearchBox
          label="Search benchmarks, notes"
          value={filters.search}
          onChange={(value) => update({ search: value })}
        />
      </div>
      {last && (
        <p class="notice" role="status">
          <span>
            Marked the change at {rangeText(last.regression)} {last.to}.
          </span>
          <ActionButton action={undo}>Undo</ActionButton>
        </p>
      )}
      <ErrorMessage error={error ?? list.error} />
      {list.loading && !list.data && <Loading what="Loading the regressions" />}
      {list.data && rows.length === 0 && (
        <Empty title={status[0] === 'all' ? 'No regressions.' : `No ${status[0]} regressions.`}>
          {status[0] === 'open'
            ? 'A change opens a regression when the change-point detector confirms it (suspected ones wait for it).'
            : 'Change the filters to see others.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <>
          <p class="muted small">
            {plural(list.data?.total ?? rows.length, 'change')}
            <span class="keys">
              {' '}
              · keys: j k move, Enter open, x series
              {ctx.canEdit && ', a acknowledge, e expected, i invalid, f fixed, u untriaged'}
            </span>
          </p>
          <div class="table-wrap">
            <table class="stack regressions">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">Commits</th>
                  <th scope="col">Branch · testbed</th>
                  <th scope="col" class="num">
                    Series
                  </th>
                  <th scope="col" class="num">
                    Largest change
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Assignee</th>
                </tr>
              </thead>
              <tbody ref={body}>
                {rows.map((r, index) => (
                  <RegressionRows
                    key={r.uuid}
                    ctx={ctx}
                    regression={r}
                    index={index}
                    selected={index === selected}
                    open={open.has(r.uuid)}
                    onToggle={() => toggle(r.uuid)}
                    onFocus={() => setSelected(index)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={PER_PAGE}
            total={list.data?.total ?? 0}
            onPage={(p) => update({ page: String(p) })}
          />
        </>
      )}
    </section>
  );
}

/** A regression's row and, expanded, a row per series. */
function RegressionRows({
  ctx,
  regression: r,
  index,
  selected,
  open,
  onToggle,
  onFocus,
}: {
  ctx: ProjectContext;
  regression: Regression;
  index: number;
  selected: boolean;
  open: boolean;
  onToggle: () => void;
  onFocus: () => void;
}) {
  const largest = largestChange(r);
  return (
    <>
      <tr
        data-index={index}
        data-uuid={r.uuid}
        tabIndex={0}
        class={`${r.kind}${selected ? ' selected' : ''}`}
        aria-selected={selected}
        onFocus={onFocus}
      >
        <td data-label="Change">
          <a href={`${ctx.base}/regressions/${r.uuid}`}>{kindText(r)}</a>
        </td>
        <td data-label="Commits" class="mono">
          {rangeText(r)}
        </td>
        <td data-label="Branch · testbed">
          <DimensionLink ctx={ctx} kind="branches" of={r.branch} /> ·{' '}
          <DimensionLink ctx={ctx} kind="testbeds" of={r.testbed} />
        </td>
        <td data-label="Series" class="num">
          <button
            type="button"
            class="link"
            aria-expanded={open}
            aria-label={`${open ? 'Hide' : 'Show'} the ${plural(r.series.length, 'series', 'series')} of the change at ${rangeText(r)}`}
            onClick={onToggle}
          >
            {r.series.length} {open ? '▾' : '▸'}
          </button>
        </td>
        <td data-label="Largest change" class={`num ${r.kind === 'regression' ? 'alert-text' : 'ok-text'}`}>
          {changeText(largest)}
        </td>
        <td data-label="Status">
          <span class={statusClass(r.status)}>{r.status}</span>
        </td>
        <td data-label="Assignee">{r.assignee?.name ?? <span class="muted">—</span>}</td>
      </tr>
      {open &&
        r.series.map((s) => (
          <tr key={`${s.benchmark.uuid} ${s.measure.uuid}`} class="sub-row">
            <td data-label="Benchmark" colSpan={2}>
              <DimensionLink ctx={ctx} kind="benchmarks" of={s.benchmark} />{' '}
              <span class="muted">{s.measure.name}</span>
            </td>
            <td data-label="Level">
              {formatNumber(s.before)} → {formatNumber(s.after)}{' '}
              <span class="muted small">{s.measure.units}</span>
            </td>
            <td data-label="Alerts" class="num">
              {plural(s.alerts.length, 'alert')}
            </td>
            <td data-label="Change" class="num">
              {changeText(s.change)}
            </td>
            <td data-label="State" colSpan={2}>
              {s.state}
            </td>
          </tr>
        ))}
    </>
  );
}
