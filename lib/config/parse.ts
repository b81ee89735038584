/**
 * Reads one config file: TOML syntax, then the zod schema. Every failure is a
 * {@link ConfigError} naming the file, line and column, with the line shown.
 *
 * @module
 */
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "../errors/mod.ts";
import { excerpt, KeyLocator, type KeyPath } from "./_locate.ts";
import { describeIssues } from "./_issues.ts";
import { PolyConfigSchema } from "./schema.ts";

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

/**
 * Parses and validates config text. `path` is the absolute file path, `display`
 * the name used in messages. Throws ConfigError on a syntax error or an invalid key.
 */
export function parseConfigText(text: string, path: string, display: string = path): ConfigFile {
  const { raw, locator } = parseTomlWith(PolyConfigSchema, text, display);
  normalise(raw);
  return { path, display, text, raw, locator };
}

/**
 * Parses TOML `text` and validates it against `schema` (any strict zod table
 * schema); returns the raw table (dates as their TOML text) and a key locator.
 * Throws ConfigError naming `display`, line and column.
 */
export function parseTomlWith(
  schema: z.ZodType,
  text: string,
  display: string,
): { raw: RawTable; locator: KeyLocator } {
  let raw: RawTable;
  try {
    raw = toPlain(parse(text), true) as RawTable;
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.replace(/^Invalid TOML document: /, "").split("\n")[0];
      const position = { line: error.line, column: error.column };
      throw new ConfigError({ file: display, ...position }, `invalid TOML: ${reason}`, excerpt(text, position));
    }
    throw error;
  }
  const locator = new KeyLocator(text);
  const result = schema.safeParse(raw);
  if (!result.success) {
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
  return { raw: toPlain(raw, false) as RawTable, locator };
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
  return parseConfigText(text, path, display);
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
