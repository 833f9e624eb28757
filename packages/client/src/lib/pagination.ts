import type { CallOptions, Schema, SvcConnection } from './connection.js';
import { SvcResponseValidationError } from './errors.js';

// Query types are type aliases, not interfaces, so they fit the request's query record.

/** Query every list takes. */
export type ListQuery = {
  /** Items per page, 1 to 100; default 20. */
  limit?: number | undefined;
  /** Where to start: the `nextCursor` of an earlier page. */
  cursor?: string | undefined;
};

/** One page of a list. */
export interface SvcPage<T> {
  /** The items of this page. */
  readonly items: T[];
  /** Cursor of the next page, or null on the last one. */
  readonly nextCursor: string | null;
}

/**
 * A list: `for await` over it walks every item across pages (fetched one page at a time, as needed);
 * `page()` fetches just one page.
 */
export interface SvcList<T> extends AsyncIterable<T> {
  /** Fetches the first page (or the page at the query's `cursor`). */
  page(): Promise<SvcPage<T>>;
  /** Walks the pages one by one. */
  pages(): AsyncIterableIterator<SvcPage<T>>;
}

/** A list over `fetchPage`, starting at `cursor`. */
export function paginate<T>(fetchPage: (cursor: string | undefined) => Promise<SvcPage<T>>, cursor?: string): SvcList<T> {
  async function* pages(): AsyncIterableIterator<SvcPage<T>> {
    let next = cursor;
    for (;;) {
      const page = await fetchPage(next);
      yield page;
      if (page.nextCursor === null) return;
      // A server that hands back the cursor it was given would otherwise keep this loop going forever.
      if (page.nextCursor === next) throw new SvcResponseValidationError(`The list repeated its cursor ${next}.`);
      next = page.nextCursor;
    }
  }
  return {
    page: () => fetchPage(cursor),
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

/** A list endpoint: GET `path` with `limit`/`cursor` (plus `filters`), items under `key` of the envelope. */
export function listEndpoint<K extends string, T>(
  connection: SvcConnection,
  path: string,
  schema: Schema<{ [P in K]: T[] } & { next_cursor: string | null }>,
  key: K,
  query: ListQuery & Record<string, string | number | boolean | undefined> = {},
  options?: CallOptions,
): SvcList<T> {
  return paginate(
    (cursor) =>
      connection
        .request({ method: 'GET', path, query: { ...query, cursor }, schema }, options)
        .then((body) => ({ items: body[key], nextCursor: body.next_cursor })),
    query.cursor,
  );
}
