import { useState } from 'preact/hooks';
import { api, listAll } from '../api/client.js';
import type { DimensionJson } from '../api/types.js';
import { SearchBox } from '../components/search-box.js';
import { ErrorMessage } from '../components/status.js';
import { plural } from '../lib/format.js';
import { useApi } from '../lib/use-api.js';
import type { DimensionTab } from './selection.js';

const PAGE = 100;

/**
 * Choosing branches, testbeds, benchmarks or measures among thousands: a search over the API, a page of
 * matches with checkboxes, and "select all matching" that takes every page of the search at once.
 */
export function Picker({
  path,
  kind,
  selected,
  limit,
  onChange,
}: {
  path: string;
  kind: DimensionTab;
  selected: readonly string[];
  /** Most that may be selected (two measures). */
  limit?: number;
  onChange: (uuids: string[]) => void;
}) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const list = useApi(
    (signal) =>
      api.list<DimensionJson>(`${path}/${kind}`, { search, per_page: PAGE, page, sort: 'name' }, signal),
    [path, kind, search, page],
  );
  const chosen = new Set(selected);
  const toggle = (uuid: string, on: boolean) => {
    if (on) {
      const next = [...selected, uuid];
      onChange(limit ? next.slice(-limit) : next);
    } else onChange(selected.filter((s) => s !== uuid));
  };
  const total = list.data?.total ?? 0;
  const items = list.data?.data ?? [];
  const allShownChosen = items.length > 0 && items.every((i) => chosen.has(i.uuid));
  const selectAll = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const all = await listAll<DimensionJson>(`${path}/${kind}`, { search, sort: 'name' });
      onChange([...new Set([...selected, ...all.map((d) => d.uuid)])]);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="picker">
      <div class="picker-bar">
        <SearchBox label={`Search ${kind}`} value={search} onChange={(s) => (setSearch(s), setPage(1))} />
        <span class="muted small" aria-live="polite">
          {plural(selected.length, 'selected', 'selected')}
          {limit ? ` (at most ${limit})` : ''}
        </span>
      </div>
      <div class="picker-actions">
        {!limit && total > 0 && (
          <button
            type="button"
            onClick={selectAll}
            disabled={busy || (allShownChosen && total <= items.length)}
          >
            {busy ? 'Selecting…' : `Select all ${total.toLocaleString()}${search ? ' matching' : ''}`}
          </button>
        )}
        {!limit && search && items.some((i) => chosen.has(i.uuid)) && (
          <button
            type="button"
            onClick={async () => {
              const all = await listAll<DimensionJson>(`${path}/${kind}`, { search, sort: 'name' });
              const drop = new Set(all.map((d) => d.uuid));
              onChange(selected.filter((s) => !drop.has(s)));
            }}
          >
            Deselect matching
          </button>
        )}
        {selected.length > 0 && (
          <button type="button" class="link" onClick={() => onChange([])}>
            Clear
          </button>
        )}
      </div>
      <ErrorMessage error={error ?? list.error} />
      <ul class="picker-list" aria-label={kind}>
        {items.map((item) => (
          <li key={item.uuid}>
            <label class="check">
              <input
                type="checkbox"
                checked={chosen.has(item.uuid)}
                onChange={(e) => toggle(item.uuid, e.currentTarget.checked)}
              />
              <span class="wrap">{item.name}</span>
            </label>
          </li>
        ))}
        {list.data && items.length === 0 && (
          <li class="muted">{search ? `Nothing matches “${search}”.` : `No ${kind} yet.`}</li>
        )}
      </ul>
      {total > PAGE && (
        <div class="picker-pages">
          <button
            type="button"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
            aria-label="Previous page"
          >
            ←
          </button>
          <span class="muted small">
            {(page - 1) * PAGE + 1}–{Math.min(total, page * PAGE)} of {total.toLocaleString()}
          </span>
          <button
            type="button"
            disabled={page * PAGE >= total}
            onClick={() => setPage(page + 1)}
            aria-label="Next page"
          >
            →
          </button>
        </div>
      )}
    </div>
  );
}
