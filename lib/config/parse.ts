/**
 * Reads one config file: TOML syntax, then the schema (through `valid.ts`,
 * which remembers what this build's schema accepted, so a run whose files it
 * has seen loads no zod). Every failure is a {@link ConfigError} naming the
 * file, line and column, with the line shown.
 *
 * @module
 */
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "../errors/mod.ts";
import { excerpt, KeyLocator, type KeyPath } from "./_locate.ts";

/** Where keys and array elements are written in TOML text (the ruff engine places `RUF201` with it). */
export { KeyLocator };
import { describeIssues } from "./_issues.ts";
import { safeParse, type SchemaName } from "./valid.ts";
import { engineTableProblems } from "./_engine_tables.ts";

/** A raw (not defaulted) config table, as written. */
export type RawTable = Record<string, unknown>;

/** One parsed and validated config file. */
export interface ConfigFile {
  /** Absolute path. */
  path: string;
  /** How the path is shown in messages (relative to the run's directory where possible). */
  display: string;
  /** The file's text. */
  text: string;
  /** The raw table as written (strings normalised to lists for `extends` and `[discovery] exclude`). */
  raw: RawTable;
  /** Finds the line and column of a key, for later errors (a missing extends base, say). */
  locator: KeyLocator;
}

/** Builds a ConfigError at `path`'s key in `file`, with the line shown. */
export function errorAt(
  file: Pick<ConfigFile, "display" | "text" | "locator">,
  path: KeyPath,
  detail: string,
): ConfigError {
  const position = file.locator.locate(path);
  return new ConfigError({ file: file.display, ...position }, detail, excerpt(file.text, position));
}

/** A checked config file's record: its raw table (dates as their TOML text, single strings as lists). */
export function configFile(text: string, path: string, display: string, checked: RawTable): ConfigFile {
  const raw = toPlain(checked, false) as RawTable;
  normalise(raw);
  return { path, display, text, raw, locator: new KeyLocator(text) };
}

/** The TOML table of `text` (dates kept as dates, for the schema); a syntax error is a ConfigError at its line. */
export function tomlTable(text: string, display: string): RawTable {
  try {
    return toPlain(parse(text), true) as RawTable;
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.replace(/^Invalid TOML document: /, "").split("\n")[0];
      const position = { line: error.line, column: error.column };
      throw new ConfigError({ file: display, ...position }, `invalid TOML: ${reason}`, excerpt(text, position));
    }
    throw error;
  }
}

/**
 * Validates a TOML table against `schema` (any strict zod table schema); a
 * problem is a ConfigError naming `display`, line and column (the first in file order).
 */
export function checkedTable(schema: z.ZodType, raw: RawTable, text: string, display: string): void {
  const result = schema.safeParse(raw);
  if (result.success) return;
  const locator = new KeyLocator(text);
  const problems = describeIssues(result.error.issues, raw, schema).map((p) => ({
    ...p,
    position: locator.locate(p.path),
  }));
  problems.sort((a, b) =>
    a.position.line - b.position.line || Number(a.missing ?? false) - Number(b.missing ?? false) ||
    a.position.column - b.position.column
  );
  const first = problems[0];
  throw new ConfigError({ file: display, ...first.position }, first.detail, excerpt(text, first.position));
}

/**
 * The TOML table of `text`, checked against schema `name` (from the memo when
 * this build accepted the same table before; else the schema loads and a
 * problem is a ConfigError at its line and column).
 */
export async function tomlChecked(name: SchemaName, text: string, display: string): Promise<RawTable> {
  const raw = tomlTable(text, display);
  if ((await safeParse(name, raw)).success) return raw;
  const { SCHEMAS } = await import("./_schemas.ts");
  checkedTable(SCHEMAS[name], raw, text, display);
  return raw; // not reached: the schema rejected it a moment ago
}

/** Reads and parses a config file; a missing or unreadable file is a ConfigError. */
export async function readConfigFile(path: string, display: string = path): Promise<ConfigFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "file not found"
      : error instanceof Deno.errors.IsADirectory
      ? "is a directory, not a file"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new ConfigError({ file: display }, `cannot read config file: ${reason}`);
  }
  const file = configFile(text, path, display, await tomlChecked("config", text, display));
  const problems = await engineTableProblems(file.raw);
  if (problems.length > 0) {
    const [first] = problems.map((p) => ({ ...p, position: file.locator.locate(p.path) }))
      .sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
    throw errorAt(file, first.path, first.detail);
  }
  return file;
}

/** Single strings where lists are allowed become one-element lists, so merging is uniform. */
function normalise(raw: RawTable): void {
  if (typeof raw.extends === "string") raw.extends = [raw.extends];
  const discovery = raw.discovery as RawTable | undefined;
  if (discovery && typeof discovery.exclude === "string") discovery.exclude = [discovery.exclude];
}

/**
 * smol-toml returns null-prototype tables and TomlDate values: make plain objects,
 * and (after validation, so a date is never taken for a string) turn dates into
 * their TOML text.
 */
function toPlain(value: unknown, keepDates: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => toPlain(v, keepDates));
  if (value instanceof Date) return keepDates ? value : value.toISOString();
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v, keepDates);
    return out;
  }
  return value;
}
