/**
 * Prettier-compatible formatter options (`.prettierrc*`, the `prettier` key of
 * `package.json`) mapped onto biome's formatter as `biome migrate prettier`
 * does: `printWidth` → `lineWidth`, `tabWidth` → `indentWidth`, `useTabs` →
 * `indentStyle`, `endOfLine` → `lineEnding`, `semi` → `javascript.formatter.semicolons`
 * (`false` → `"asNeeded"`), `singleQuote` → `quoteStyle`, `jsxSingleQuote` →
 * `jsxQuoteStyle`, `quoteProps` → `quoteProperties`, `trailingComma` →
 * `trailingCommas`, `bracketSpacing`, `bracketSameLine`, `arrowParens` →
 * `arrowParentheses`, `singleAttributePerLine` → `attributePosition`;
 * `overrides` become biome `overrides`. An option with no biome equivalent that
 * changes JS/TS/JSON/CSS output, a plugin, or a JavaScript config file is a
 * {@link ConfigError} naming it. Options that only concern languages biome does
 * not format here (`proseWrap`, `htmlWhitespaceSensitivity`, ...) are accepted
 * and have no effect on biome.
 *
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors/mod.ts";
import { parseJsonc } from "./_jsonc.ts";
import type { NativeText } from "./_files.ts";

/** Prettier config file names, in prettier's search order. */
export const PRETTIER_FILES = [
  "package.json",
  ".prettierrc",
  ".prettierrc.json",
  ".prettierrc.yaml",
  ".prettierrc.yml",
  ".prettierrc.json5",
  ".prettierrc.js",
  ".prettierrc.cjs",
  ".prettierrc.mjs",
  ".prettierrc.ts",
  "prettier.config.js",
  "prettier.config.cjs",
  "prettier.config.mjs",
  "prettier.config.ts",
  ".prettierrc.toml",
] as const;

type Table = Record<string, unknown>;

/** Options without effect on what biome formats (JS/TS/JSON/CSS/GraphQL), accepted. */
const NOT_BIOME = new Set([
  "proseWrap",
  "htmlWhitespaceSensitivity",
  "vueIndentScriptAndStyle",
  "embeddedLanguageFormatting",
  "$schema",
  "parser",
  "filepath",
  "requirePragma",
  "insertPragma",
  "checkIgnorePragma",
]);

/** The prettier options in `file` (undefined: a package.json without a `prettier` key). */
export async function prettierOptions(file: NativeText, display: string): Promise<Table | undefined> {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  if (/\.(c|m)?[jt]s$/.test(name)) {
    throw new ConfigError(
      { file: display },
      "a JavaScript prettier config cannot be read by poly (it would run code): write it as .prettierrc.json, or set [tools.biome] native_config = false",
    );
  }
  let doc: unknown;
  try {
    if (name === "package.json") {
      doc = (JSON.parse(file.text) as Table).prettier;
      if (doc === undefined) return undefined;
      if (typeof doc === "string") {
        throw new ConfigError({ file: display }, `"prettier": "${doc}" names a shared config package poly cannot load`);
      }
    } else if (name.endsWith(".toml")) doc = parseToml(file.text);
    else if (name.endsWith(".json") || name.endsWith(".json5")) doc = parseJsonc(file.text);
    else doc = jsonOrUndefined(file.text) ?? (await import("yaml")).parse(file.text);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(
      { file: display },
      `cannot parse: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`,
    );
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new ConfigError({ file: display }, "expected an object of prettier options");
  }
  return doc as Table;
}

/**
 * `text` parsed as JSON, or undefined when it is not JSON. A `.prettierrc` is YAML, of which JSON is a subset, and is
 * most often written as JSON: parsed so, it needs no YAML parser (npm `yaml` costs ~50 ms to load and ~100 ms to parse
 * its first document in a fresh process).
 */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function expect<T>(display: string, key: string, value: unknown, map: Record<string, T>): T {
  const k = String(value);
  if (!(k in map)) {
    throw new ConfigError(
      { file: display },
      `prettier option "${key}" = ${JSON.stringify(value)} has no biome equivalent (expected one of ${
        Object.keys(map).map((m) => `"${m}"`).join(", ")
      })`,
    );
  }
  return map[k];
}

/** Maps one prettier options object (no `overrides`) onto biome's configuration shape. */
function mapOptions(options: Table, display: string): Table {
  const formatter: Table = {};
  const js: Table = {};
  for (const [key, v] of Object.entries(options)) {
    switch (key) {
      case "printWidth":
        formatter.lineWidth = v;
        break;
      case "tabWidth":
        formatter.indentWidth = v;
        break;
      case "useTabs":
        formatter.indentStyle = v ? "tab" : "space";
        break;
      case "endOfLine":
        formatter.lineEnding = expect(display, key, v, { lf: "lf", crlf: "crlf", cr: "cr", auto: "auto" });
        break;
      case "bracketSpacing":
        formatter.bracketSpacing = Boolean(v);
        break;
      case "semi":
        js.semicolons = v ? "always" : "asNeeded";
        break;
      case "singleQuote":
        js.quoteStyle = v ? "single" : "double";
        break;
      case "jsxSingleQuote":
        js.jsxQuoteStyle = v ? "single" : "double";
        break;
      case "quoteProps":
        js.quoteProperties = expect(display, key, v, { "as-needed": "asNeeded", preserve: "preserve" });
        break;
      case "trailingComma":
        js.trailingCommas = expect(display, key, v, { all: "all", es5: "es5", none: "none" });
        break;
      case "bracketSameLine":
      case "jsxBracketSameLine":
        js.bracketSameLine = Boolean(v);
        break;
      case "arrowParens":
        js.arrowParentheses = expect(display, key, v, { always: "always", avoid: "asNeeded" });
        break;
      case "singleAttributePerLine":
        js.attributePosition = v ? "multiline" : "auto";
        break;
      case "objectWrap":
        formatter.expand = expect(display, key, v, { preserve: "auto", collapse: "never" });
        break;
      case "plugins":
        if (Array.isArray(v) && v.length === 0) break;
        throw new ConfigError({ file: display }, `prettier "plugins" cannot be honoured by poly's biome formatter`);
      default:
        if (NOT_BIOME.has(key)) break;
        throw new ConfigError({ file: display }, `prettier option "${key}" has no biome equivalent poly can apply`);
    }
  }
  const out: Table = {};
  if (Object.keys(formatter).length > 0) out.formatter = formatter;
  if (Object.keys(js).length > 0) out.javascript = { formatter: js };
  return out;
}

/** A biome configuration equivalent to a prettier options object (with its `overrides`). */
export function prettierToBiome(options: Table, display: string): Table {
  const { overrides, ...rest } = options;
  // prettier's defaults where biome's differ (biome indents with tabs by default).
  const out = mergeTables({ formatter: { indentStyle: "space" } }, mapOptions(rest, display));
  if (overrides !== undefined) {
    if (!Array.isArray(overrides)) throw new ConfigError({ file: display }, `prettier "overrides" must be a list`);
    out.overrides = overrides.map((o: Table) => {
      const files = ([] as unknown[]).concat(o.files ?? []).map(String);
      const excluded = ([] as unknown[]).concat(o.excludeFiles ?? []).map(String);
      const glob = (g: string) => g.includes("/") ? g.replace(/^\.\//, "") : `**/${g}`;
      return {
        includes: [...files.map(glob), ...excluded.map((g) => `!${glob(g)}`)],
        ...mapOptions((o.options ?? {}) as Table, display),
      };
    });
  }
  return out;
}

function mergeTables(under: Table, over: Table): Table {
  const out: Table = { ...under };
  for (const [k, v] of Object.entries(over)) {
    const u = out[k];
    out[k] = v !== null && typeof v === "object" && !Array.isArray(v) && u !== null && typeof u === "object" &&
        !Array.isArray(u)
      ? mergeTables(u as Table, v as Table)
      : v;
  }
  return out;
}
