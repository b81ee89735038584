/**
 * The `/` filter: words separated by spaces, all of which must match. A word
 * `field:value` matches when the row's field contains the value; `-word` or
 * `-field:value` excludes; any other word matches anywhere in the row. Matching
 * ignores case.
 *
 * @example
 * ```ts
 * matches(session, "engine:codex -status:ok", SESSION_FIELDS); // codex sessions whose last call failed
 * ```
 *
 * @module
 */

/** The fields a pane's rows can be filtered by. */
export type FilterFields<T> = Record<string, (row: T) => string | number | null | undefined>;

/** The words of a filter. */
export interface FilterTerm {
  field?: string;
  value: string;
  negate: boolean;
}

/** Splits a filter into terms (lower-cased). */
export function parseFilter(query: string): FilterTerm[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean).map((word) => {
    const negate = word.startsWith("-") && word.length > 1;
    const body = negate ? word.slice(1) : word;
    const at = body.indexOf(":");
    return at > 0 ? { field: body.slice(0, at), value: body.slice(at + 1), negate } : { value: body, negate };
  });
}

function text(v: string | number | null | undefined): string {
  return v === null || v === undefined ? "" : String(v).toLowerCase();
}

/** Whether `row` passes `query`. An unknown field name matches nothing. */
export function matches<T>(row: T, query: string, fields: FilterFields<T>): boolean {
  const terms = parseFilter(query);
  if (terms.length === 0) return true;
  let all: string | undefined;
  return terms.every((t) => {
    let hit: boolean;
    if (t.field !== undefined) {
      const get = fields[t.field];
      hit = get !== undefined && text(get(row)).includes(t.value);
    } else {
      all ??= Object.values(fields).map((get) => text(get(row))).join("\u0000");
      hit = all.includes(t.value);
    }
    return t.negate ? !hit : hit;
  });
}
