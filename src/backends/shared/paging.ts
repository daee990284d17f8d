/**
 * RAGFlow's list semantics over records in memory (the memory and data-folder backends): filter by
 * id, keywords and title, order by a time, then cut a page. Databases do the same in their queries.
 */
import type { ListQuery, Page } from "../contracts.js";

export function listPage<T extends { id: string; create_time: number; update_time: number }>(
  records: readonly T[],
  query: ListQuery,
  textOf: (record: T) => string,
): Page<T> {
  const keywords = query.keywords?.toLowerCase();
  const title = query.title?.toLowerCase();
  const matching = records.filter(
    (r) =>
      (query.id === undefined || r.id === query.id) &&
      (keywords === undefined || keywords === "" || textOf(r).toLowerCase().includes(keywords)) &&
      (title === undefined || title === "" || textOf(r).toLowerCase() === title),
  );
  const key = query.orderby;
  // Ties by id in the same direction (what a database's `ORDER BY t DESC, id DESC` and a Redis
  // sorted set's reverse range give), so a page never depends on insertion order or backend.
  const direction = query.desc ? -1 : 1;
  matching.sort((a, b) => ((a[key] - b[key]) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * direction);
  const start = (Math.max(1, query.page) - 1) * query.page_size;
  return { items: matching.slice(start, start + query.page_size), total: matching.length };
}
