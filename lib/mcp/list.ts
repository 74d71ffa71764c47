/**
 * Every page of one MCP list, bounded and lenient per item: the listing of the one upstream
 * session (session.ts) that the inspection and the gate (node/gate.ts) both open, so a surface
 * the gate reads hashes exactly as the inspection that pinned it. Bounds: pages (and a repeated cursor), items, and the length of
 * each bounded text; a trip is recorded on the guard and thrown as GuardTripped. Items that fail
 * the protocol schema, or repeat a sort key, are kept as rejects, never dropped.
 *
 * The next page is requested before this page's items are checked, so the server prepares it while
 * we work (10,000 tools come in ten pages or more).
 */
import {
  LIST_FIELD,
  LIST_METHOD,
  boundedTexts,
  convertItem,
  type DomainItem,
} from "@/lib/mcp/convert";
import { GuardTripped, type InspectionGuard } from "@/lib/mcp/guard";
import { SORT_KEY, itemKey } from "@/lib/surface/fingerprint";
import type { InspectLimits } from "@/lib/surface/limits";
import type { ListCacheHint, SurfaceList, SurfaceReject } from "@/lib/surface/types";

export type ListedItems = {
  items: DomainItem[];
  rejects: SurfaceReject[];
  pages: number;
  /** The 2026-07-28 cache hints the pages declared (absent when none did); never part of the fingerprint. */
  cacheHint?: ListCacheHint;
};

/** Longest `cacheScope` kept: the spec's values are short words; a longer one is kept cut, as text. */
const MAX_CACHE_SCOPE_LENGTH = 32;

/**
 * Folds one page's `cacheScope`/`ttlMs` into the list's hint: "public" on any page makes the list
 * public (a shared cache may keep that page), otherwise the first scope sent; the shortest ttlMs.
 */
function foldCacheHint(hint: ListCacheHint | undefined, result: Record<string, unknown>) {
  const scope = result.cacheScope;
  const ttl = result.ttlMs;
  if (typeof scope !== "string" && typeof ttl !== "number") return hint;
  const out: ListCacheHint = { ...hint };
  if (typeof scope === "string" && (out.cacheScope === undefined || scope === "public"))
    out.cacheScope = scope.slice(0, MAX_CACHE_SCOPE_LENGTH);
  if (typeof ttl === "number" && Number.isFinite(ttl))
    out.ttlMs = out.ttlMs === undefined ? ttl : Math.min(out.ttlMs, ttl);
  return out;
}

export type ListPagesOptions = {
  guard: InspectionGuard;
  limits: InspectLimits;
  /** Send `method` with `params`; resolves to the result object (`nextCursor` and the list field). */
  request: (
    method: string,
    params: { cursor: string } | undefined,
    page: number,
  ) => Promise<Record<string, unknown>>;
  /**
   * Why an item that passed the protocol schema is still invalid under the era's rules (a 2026
   * tool's `x-mcp-header` annotations), or null; an invalid item is kept as a reject.
   */
  itemProblem?: (item: DomainItem) => string | null;
  /** Called as each page is requested, with the items received before it. */
  onPage?: (page: number, received: number) => void;
};

export async function listEveryPage(
  list: SurfaceList,
  options: ListPagesOptions,
): Promise<ListedItems> {
  const { guard, limits } = options;
  const method = LIST_METHOD[list];
  const fail = (error: Parameters<InspectionGuard["trip"]>[0]): never => {
    guard.trip(error);
    throw new GuardTripped(guard.error!);
  };
  const trip = (limit: "pageCount" | "itemCount" | "descriptionLength", message: string): never => {
    guard.tripLimit(limit, message);
    throw new GuardTripped(guard.error!);
  };
  const requestPage = (page: number, cursor: string | undefined, received: number) => {
    if (page > limits.pageCount)
      trip("pageCount", `${method} kept returning a next page after ${limits.pageCount} pages`);
    options.onPage?.(page, received);
    return options.request(method, cursor === undefined ? undefined : { cursor }, page);
  };

  const items: DomainItem[] = [];
  const rejects: SurfaceReject[] = [];
  const firstAt = new Map<string, { page: number; index: number }>();
  const seenCursors = new Set<string>();
  let page = 1;
  let received = 0;
  let cacheHint: ListCacheHint | undefined;
  let pending = requestPage(page, undefined, received);
  for (;;) {
    const result = await pending;
    cacheHint = foldCacheHint(cacheHint, result);
    const raw = result[LIST_FIELD[list]];
    if (!Array.isArray(raw))
      fail({
        code: "protocol_error",
        message: `${method} page ${page} has no "${LIST_FIELD[list]}" array`,
      });
    const pageItems = raw as unknown[];
    received += pageItems.length;
    if (received > limits.itemCount)
      trip("itemCount", `${method} returned more than ${limits.itemCount} items`);
    const next = result.nextCursor;
    if (next !== undefined && next !== null && typeof next !== "string") {
      fail({
        code: "protocol_error",
        message: `${method} page ${page} has a nextCursor that is not a string`,
      });
    }
    const cursor = typeof next === "string" ? next : undefined;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor))
        trip(
          "pageCount",
          `${method} repeated the cursor ${JSON.stringify(cursor.slice(0, 80))} at page ${page} (a cursor loop)`,
        );
      seenCursors.add(cursor);
      pending = requestPage(page + 1, cursor, received);
      // If checking this page's items throws, the request in flight is abandoned with the
      // transport (a tripped guard closes it); its rejection must not go unhandled.
      pending.catch(() => {});
    }
    const pageNumber = page;
    pageItems.forEach((rawItem, index) => {
      const c = convertItem(list, rawItem, pageNumber, index);
      if (!c.ok) {
        rejects.push(c.reject);
        return;
      }
      const problem = options.itemProblem?.(c.item) ?? null;
      if (problem !== null) {
        rejects.push({ list, page: pageNumber, index, raw: rawItem, reason: problem });
        return;
      }
      for (const [field, text] of boundedTexts(list, c.item)) {
        if (text.length > limits.descriptionLength) {
          trip(
            "descriptionLength",
            `${list} item ${JSON.stringify(itemKey(list, c.item).slice(0, 80))} has a ${field} of ${text.length} characters`,
          );
        }
      }
      const key = itemKey(list, c.item);
      const first = firstAt.get(key);
      if (first) {
        rejects.push({
          list,
          page: pageNumber,
          index,
          raw: rawItem,
          reason: `duplicate ${SORT_KEY[list]} ${JSON.stringify(key)} (first at page ${first.page}, index ${first.index})`,
        });
        return;
      }
      firstAt.set(key, { page: pageNumber, index });
      items.push(c.item);
    });
    if (cursor === undefined)
      return { items, rejects, pages: page, ...(cacheHint ? { cacheHint } : {}) };
    page++;
  }
}
