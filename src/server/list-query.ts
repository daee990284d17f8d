/**
 * The paging and filters of RAGFlow's list endpoints, from a query string already checked against
 * `schemas/server/list-query.schema.json`.
 */
import type { ListQuery } from "../backends/contracts.js";

export interface RawListQuery {
  page?: number;
  page_size?: number;
  orderby?: "create_time" | "update_time";
  desc?: string;
  dsl?: string;
  keywords?: string;
  id?: string;
  title?: string;
  user_id?: string;
  format?: "list";
}

const DEFAULT_PAGE_SIZE = 30;

/** A boolean query parameter (`true`, `True`, `1`…); `fallback` when absent. */
export function queryFlag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  return lower === "true" || lower === "1";
}

export function listQuery(raw: RawListQuery, defaultOrder: ListQuery["orderby"]): ListQuery {
  return {
    page: raw.page ?? 1,
    page_size: raw.page_size ?? DEFAULT_PAGE_SIZE,
    orderby: raw.orderby ?? defaultOrder,
    desc: queryFlag(raw.desc, true),
    ...(raw.id ? { id: raw.id } : {}),
    ...(raw.keywords ? { keywords: raw.keywords } : {}),
    ...(raw.title ? { title: raw.title } : {}),
    ...(raw.user_id ? { user_id: raw.user_id } : {}),
  };
}
