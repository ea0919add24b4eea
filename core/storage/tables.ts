/**
 * Generic row access shared by every simple table (users, organizations, projects, dimensions, ...). Storage
 * plugins implement it once per engine; keys of `where` and `sort` are column names checked against the table.
 */

/** Equality filter on columns; `null` matches SQL NULL; an array matches any of its values. */
export type Where<R> = { readonly [K in keyof R]?: R[K] | null | readonly R[K][] };

export type Direction = 'asc' | 'desc';

export interface ListOptions<R> {
  /** 1-based; 0 and 1 both mean the first page. */
  readonly page?: number;
  readonly perPage?: number;
  readonly sort?: keyof R & string;
  readonly direction?: Direction;
  /** Case-insensitive substring over the table's searchable columns (name, slug, uuid). */
  readonly search?: string;
}

/** One page of rows and the total number of rows that match (before pagination). */
export interface Page<R> {
  readonly items: R[];
  readonly total: number;
}

export interface TableReader<R> {
  find(where: Where<R>): Promise<R | undefined>;
  all(where: Where<R>): Promise<R[]>;
  list(where: Where<R>, options: ListOptions<R>): Promise<Page<R>>;
  count(where: Where<R>): Promise<number>;
}

export interface TableWriter<R, N> extends TableReader<R> {
  /** Inserts one row and returns it as stored (with generated id and defaults). */
  insert(values: N): Promise<R>;
  /** Updates matching rows; returns how many changed. */
  update(where: Where<R>, patch: Partial<R>): Promise<number>;
  /** Deletes matching rows; returns how many. */
  delete(where: Where<R>): Promise<number>;
}
