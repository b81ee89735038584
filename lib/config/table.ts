/**
 * A table of a configuration file: a TOML table, a JSON or YAML object, as parsed. A leaf module, for every reader of
 * configuration (poly.toml's, the native tools' files) and the engines that take its options.
 *
 * @module
 */

/** A parsed table: its keys and values as the parser gave them. */
export type Table = Record<string, unknown>;

/** Whether a parsed value is a table: an object, not an array nor a TOML date (smol-toml parses dates as `Date`s). */
export function isTable(value: unknown): value is Table {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date);
}

/** A parsed value as a table: itself when it is one ({@link isTable}), else an empty table. */
export function tableOf(value: unknown): Table {
  return isTable(value) ? value : {};
}

/** `over` laid on `under`, field by field: tables merge key by key ({@link isTable}), anything else replaces. */
export function mergeTables(under: Table, over: Table): Table {
  const out: Table = { ...under };
  for (const [k, v] of Object.entries(over)) out[k] = isTable(v) && isTable(out[k]) ? mergeTables(out[k], v) : v;
  return out;
}
