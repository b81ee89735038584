/**
 * The one switch for resident memos: `POLY_DAEMON=0` (or `off`, `false`, `no`)
 * makes `poly lint` / `poly fmt` run in their own process whatever daemon is
 * running, and `poly mcp` run every call without a watched memo.
 *
 * @module
 */

/** Whether resident memos may be used in this process. */
export function memoAllowed(): boolean {
  try {
    const value = Deno.env.get("POLY_DAEMON");
    return value === undefined || !["0", "off", "false", "no"].includes(value.toLowerCase());
  } catch {
    return true;
  }
}
