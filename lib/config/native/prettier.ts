/**
 * Prettier-compatible formatter options: prettier's (`.prettierrc*`, `prettier.config.*`, the `prettier` key of
 * `package.json`, a shared config package they name) and oxfmt's (`.oxfmtrc.json`, `.oxfmtrc.jsonc`,
 * `oxfmt.config.ts`: prettier's options with oxfmt's own defaults and extensions), read as the tools read them
 * (JavaScript files without running them, `_jsconfig.ts`). prettier, or oxfmt, formats under them (lib/run/plan.ts);
 * resolved for one file by {@link styleOptionsFor} (prettier's) or {@link oxfmtOptionsFor} (oxfmt's), and mapped onto biome's formatter, for where biome formats under them, as
 * `biome migrate prettier` does:
 *
 * - `printWidth` → `lineWidth`, `tabWidth` → `indentWidth`, `useTabs` →
 *   `indentStyle`, `endOfLine` → `lineEnding`, `bracketSpacing`, `objectWrap` →
 *   `expand`; `semi` → `javascript.formatter.semicolons` (`false` →
 *   `"asNeeded"`), `singleQuote` → `quoteStyle` (CSS's too, as prettier quotes
 *   CSS strings by it, where `biome migrate prettier` leaves CSS at double),
 *   `jsxSingleQuote` → `jsxQuoteStyle`, `quoteProps` → `quoteProperties`,
 *   `trailingComma` → `trailingCommas`, `bracketSameLine`, `arrowParens` →
 *   `arrowParentheses`, `singleAttributePerLine` → `attributePosition`;
 *   `overrides` become biome `overrides`.
 * - oxfmt: a default width of 100; `insertFinalNewline` → `trailingNewline`,
 *   `experimentalOperatorPosition` → `operatorLinebreak`; `ignorePatterns`
 *   (gitignore patterns relative to the file) keep files from the formatter;
 *   its sorting (imports, `package.json` keys, Tailwind classes) and JSDoc
 *   formatting have no equivalent in biome's formatter: poly neither applies
 *   nor undoes them.
 * - Both tools read a file's `.editorconfig` beneath their own options
 *   ({@link editorconfigStyle}; applied per file in lib/run/plan.ts).
 * - An option with no biome equivalent that changes JS/TS/JSON/CSS output, or a
 *   plugin poly does not know ({@link stylePlugins}), is a {@link ConfigError} naming it (raised where biome formats).
 *   Options that only concern languages biome does not format here
 *   (`proseWrap`, `htmlWhitespaceSensitivity`, ...) are accepted and have no
 *   effect on biome.
 *
 * @module
 */
import { dirname, relative, sep } from "node:path";
import { ignoredBy } from "./_ignores.ts";
import { PRE_COMMIT_FILE, readPreCommit } from "./pre_commit.ts";
import { prettierHookOptions } from "./hook_args.ts";
import { parseError } from "./_reading.ts";
import { mergeTables } from "../table.ts";
import picomatch from "picomatch";
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors/mod.ts";
import { parseJson5, parseJsonc } from "./_jsonc.ts";
import type { NativeText } from "./_files.ts";
import type { NativeEngineConfig } from "./types.ts";

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

/**
 * oxfmt's config file names in one directory, in its order; nearest to the file governs. `oxfmt.config.ts` is
 * found only to be refused (it would run code).
 */
export const OXFMT_FILES = [".oxfmtrc.json", ".oxfmtrc.jsonc", "oxfmt.config.ts"] as const;

/** Whose prettier-compatible options: prettier's, or oxfmt's. */
export type StyleTool = "prettier" | "oxfmt";

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

/**
 * oxfmt's options for what biome's formatter does not do (sorting imports, `package.json` keys and Tailwind
 * classes; reformatting JSDoc): poly's output is what biome's formatter gives, in the order the file has.
 */
const OXFMT_NOT_BIOME = new Set([
  "sortImports",
  "experimentalSortImports",
  "sortPackageJson",
  "experimentalSortPackageJson",
  "sortTailwindcss",
  "experimentalTailwindcss",
  "jsdoc",
]);

/**
 * prettier plugins that add languages, by the languages they format: their files are the plugin's to format, which
 * poly does not run, so poly leaves them unchecked (skipped, saying so) rather than format them its own way.
 */
export const LANGUAGE_PLUGINS: Readonly<Record<string, readonly string[]>> = {
  "prettier-plugin-astro": ["astro"],
  "prettier-plugin-svelte": ["svelte"],
  "@prettier/plugin-xml": ["svg"],
  "prettier-plugin-java": ["java"],
  "@prettier/plugin-php": ["php"],
  "@prettier/plugin-ruby": ["ruby"],
  "@prettier/plugin-lua": ["lua"],
  "prettier-plugin-sh": ["shell", "dockerfile"],
  "prettier-plugin-toml": ["toml"],
  "prettier-plugin-sql": ["sql"],
};

/**
 * prettier plugins that only sort what prettier prints (classes, imports, `package.json` keys): poly formats as
 * prettier does without them, so it neither applies nor undoes their order (as with oxfmt's sorting).
 */
export const SORTING_PLUGINS: ReadonlySet<string> = new Set([
  "prettier-plugin-tailwindcss",
  "prettier-plugin-organize-imports",
  "@trivago/prettier-plugin-sort-imports",
  "@ianvs/prettier-plugin-sort-imports",
  "prettier-plugin-packagejson",
  "prettier-plugin-sort-json",
]);

/** The `plugins` a prettier-compatible configuration lists, and those poly knows neither as a language nor a sort. */
export function stylePlugins(options: Table): { plugins: string[]; unknown: string[] } {
  const list = Array.isArray(options.plugins) ? options.plugins : [];
  const plugins = list.map((p) => typeof p === "string" ? p : JSON.stringify(p));
  return { plugins, unknown: plugins.filter((p) => !(p in LANGUAGE_PLUGINS) && !SORTING_PLUGINS.has(p)) };
}

/** Whether a `package.json` text lists prettier among its `devDependencies` (one that does not parse does not). */
export function devDependsOnPrettier(text: string): boolean {
  try {
    const deps = (JSON.parse(text) as Table).devDependencies;
    return deps !== null && typeof deps === "object" && "prettier" in deps;
  } catch {
    return false;
  }
}

/** The prettier poly runs (deno.json's pin of `prettier`; lib/engines/prettier/mod.ts). */
export const PRETTIER_RELEASE = "3.10.1";

/** The oxfmt poly runs (deno.json's pin of `oxfmt`; lib/engines/oxfmt/mod.ts). */
export const OXFMT_RELEASE = "0.78.0";

/**
 * The release of npm package `name` (prettier, oxfmt) a `package.json` text declares: the range its `devDependencies`
 * (else `dependencies`) give it, an alias's (`npm:prettier@2.8.8`) as the range after it. Undefined where it declares
 * none, or does not parse.
 */
export function declaredRelease(text: string, name: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (doc === null || typeof doc !== "object") return undefined;
  for (const key of ["devDependencies", "dependencies"]) {
    const deps = (doc as Table)[key];
    const spec = deps !== null && typeof deps === "object" ? (deps as Table)[name] : undefined;
    if (typeof spec === "string") return spec.replace(new RegExp(`^npm:${name}@`), "");
  }
  return undefined;
}

/** Whether `spec` names one release (`3.7.4`) rather than a range. */
export function exactRelease(spec: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(spec);
}

/**
 * Whether a repository that names `spec` for prettier (an npm range: `3.7.4`, `^2.8.8`, `~3.3`; the release installed
 * in its `node_modules`, or a pre-commit hook's) formats with another prettier than poly's (`ours`), one the range does
 * not admit; the same for oxfmt against {@link OXFMT_RELEASE}, whose releases before 1.0 each lay out some files anew
 * (vitejs/vite's locked 0.63.0 calls none of its files unformatted, 0.78.0 fifteen Markdown and HTML files). prettier's
 * output changes between releases, minor ones included (its docs ask for an exact pin for that reason): 3.10.1 lays out
 * 17 of honojs/hono's files otherwise than the 3.7.4 it pins (a union type with a comment after its last member joined
 * onto one line), and prettier 3 changed the layout of template literals, of parameters with modifiers, of arrow chains
 * returning JSX and of CSS values separated by commas, and its `trailingComma` default, from 2's
 * (react-native-community/template's apps pin prettier 2.8.8). A range poly cannot read (`latest`, `workspace:*`,
 * `catalog:`) names none.
 */
export async function anotherRelease(spec: string, ours: string = PRETTIER_RELEASE): Promise<boolean> {
  // A version (`3.7.4`: prettier's docs ask for an exact pin) is poly's or another; a range takes npm's semantics,
  // loaded only for one.
  if (exactRelease(spec)) return spec !== ours;
  const { satisfies, validRange } = await import("./_semver.ts");
  return validRange(spec) && !satisfies(ours, spec);
}

/** Reads a file a configuration names (a shared config package's), for {@link prettierOptions}. */
export type ReadShared = (path: string) => Promise<NativeText | undefined>;

/**
 * The prettier options in `file` (undefined: a package.json without a `prettier` key). A configuration that names a
 * shared config package (`"prettier": "@acme/prettier-config"`) is that package's, found in `node_modules` as
 * prettier finds it and read without running it (`read` reads it, and so lists it among the configuration's files).
 */
export async function prettierOptions(
  file: NativeText,
  display: string,
  read?: ReadShared,
): Promise<Table | undefined> {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  let doc: unknown;
  try {
    // A JavaScript or TypeScript file is read without running it: only literal values (lib/config/native/_jsconfig.ts).
    if (/\.(c|m)?[jt]s$/.test(name)) {
      doc = (await import("./_jsconfig.ts")).staticExport(file.text, name, display, {
        instead: "write it as .prettierrc.json, or set [tools.biome] native_config = false",
      });
    } else if (name === "package.json") {
      doc = (JSON.parse(file.text) as Table).prettier;
      // Without a `prettier` key, one that lists prettier among its devDependencies formats with its defaults.
      if (doc === undefined) return devDependsOnPrettier(file.text) ? {} : undefined;
    } else if (name === PRE_COMMIT_FILE) {
      // A prettier hook formats with prettier's defaults beneath its arguments (lib/config/native/pre_commit.ts).
      const hook = (await readPreCommit(file.text, display)).hooks.find((h) => h.engine === "prettier");
      return hook ? prettierHookOptions(hook, display) : undefined;
    } else if (name.endsWith(".toml")) doc = parseToml(file.text);
    else if (name.endsWith(".json5")) doc = parseJson5(file.text);
    else if (name.endsWith(".json")) doc = parseJsonc(file.text);
    else doc = jsonOrUndefined(file.text) ?? (await import("yaml")).parse(file.text);
    if (typeof doc === "string") doc = await sharedConfig(doc, file.path, display, read);
  } catch (e) {
    throw parseError(e, display);
  }
  return optionsObject(doc, display, "prettier");
}

/**
 * The options of the shared config package `spec` names (`@acme/prettier-config`, or a file in one), found in the
 * `node_modules` folders from `from`'s directory up, as Node finds it: its `exports` or `main` (else `index.js`), a
 * JSON file parsed, a JavaScript one read without running it.
 */
async function sharedConfig(spec: string, from: string, display: string, read?: ReadShared): Promise<unknown> {
  const parts = spec.split("/");
  const pkg = parts.slice(0, spec.startsWith("@") ? 2 : 1).join("/");
  const sub = parts.slice(spec.startsWith("@") ? 2 : 1).join("/");
  const missing = () =>
    new ConfigError(
      { file: display },
      `"${spec}" names a shared config package poly cannot find in node_modules: install the repository's dependencies, or set [tools.prettier] native_config = false and [tools.biome] native_config = false`,
    );
  if (!read || !/^(@[\w.-]+\/)?[\w.-]+$/.test(pkg)) throw missing();
  for (let dir = dirname(from);; dir = dirname(dir)) {
    const root = `${dir}/node_modules/${pkg}`;
    const manifest = await read(`${root}/package.json`);
    if (manifest) {
      const entry = sub ? [sub, `${sub}.js`, `${sub}.json`, `${sub}/index.js`] : entries(manifest.text);
      for (const candidate of entry) {
        const target = await read(`${root}/${candidate.replace(/^\.\//, "")}`);
        if (!target) continue;
        const shown = `${spec}/${candidate.replace(/^\.\//, "")}`.replace(`${spec}/${sub}/`, `${spec}/`);
        if (target.path.endsWith(".json5")) return parseJson5(target.text);
        if (target.path.endsWith(".json")) return parseJsonc(target.text);
        return (await import("./_jsconfig.ts")).staticExport(target.text, target.path, shown, {
          instead: `set [tools.prettier] native_config = false and [tools.biome] native_config = false`,
        });
      }
      throw missing();
    }
    if (dirname(dir) === dir) throw missing();
  }
}

/** A package's entry files as Node picks them: `exports` (`"."`, its `default`/`require`/`import`), `main`, `index.js`. */
function entries(manifest: string): string[] {
  let pkg: Table;
  try {
    pkg = JSON.parse(manifest) as Table;
  } catch {
    return ["index.js"];
  }
  const out: string[] = [];
  const take = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      const t = v as Table;
      if ("." in t) take(t["."]);
      for (const k of ["default", "require", "import", "node"]) if (k in t) take(t[k]);
    }
  };
  take(pkg.exports);
  if (typeof pkg.main === "string") out.push(pkg.main, `${pkg.main}.js`, `${pkg.main}/index.js`);
  out.push("index.js", "index.json");
  return [...new Set(out)];
}

/**
 * The options in an oxfmt config file (`.oxfmtrc.json` / `.oxfmtrc.jsonc`; `oxfmt.config.ts` read without running it,
 * its `defineConfig` from oxfmt taken as what it is, the object it is given).
 */
export async function oxfmtOptions(file: NativeText, display: string): Promise<Table> {
  let doc: unknown;
  try {
    doc = /\.jsonc?$/.test(file.path)
      ? parseJsonc(file.text)
      : (await import("./_jsconfig.ts")).staticExport(file.text, "oxfmt.config.ts", display, {
        definer: "oxfmt",
        instead: "write it as .oxfmtrc.json, or set [tools.biome] native_config = false",
      });
  } catch (e) {
    throw parseError(e, display);
  }
  return optionsObject(doc, display, "oxfmt");
}

/** `doc` as the tool's options, or a ConfigError naming the file when it is not an object. */
function optionsObject(doc: unknown, display: string, tool: StyleTool): Table {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new ConfigError({ file: display }, `expected an object of ${tool} options`);
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

function expect<T>(tool: StyleTool, display: string, key: string, value: unknown, map: Record<string, T>): T {
  const k = String(value);
  if (!(k in map)) {
    throw new ConfigError(
      { file: display },
      `${tool} option "${key}" = ${JSON.stringify(value)} has no biome equivalent (expected one of ${
        Object.keys(map).map((m) => `"${m}"`).join(", ")
      })`,
    );
  }
  return map[k];
}

/** Maps one prettier-compatible options object (no `overrides`, no `ignorePatterns`) onto biome's configuration shape. */
function mapOptions(options: Table, display: string, tool: StyleTool = "prettier"): Table {
  const formatter: Table = {};
  const js: Table = {};
  const css: Table = {};
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
        formatter.lineEnding = expect(tool, display, key, v, { lf: "lf", crlf: "crlf", cr: "cr", auto: "auto" });
        break;
      case "bracketSpacing":
        formatter.bracketSpacing = Boolean(v);
        break;
      case "semi":
        js.semicolons = v ? "always" : "asNeeded";
        break;
      case "singleQuote":
        // prettier (and oxfmt) quote CSS strings by it too; `biome migrate prettier` leaves CSS at biome's double.
        js.quoteStyle = v ? "single" : "double";
        css.quoteStyle = js.quoteStyle;
        break;
      case "jsxSingleQuote":
        js.jsxQuoteStyle = v ? "single" : "double";
        break;
      case "quoteProps":
        js.quoteProperties = expect(tool, display, key, v, { "as-needed": "asNeeded", preserve: "preserve" });
        break;
      case "trailingComma":
        js.trailingCommas = expect(tool, display, key, v, { all: "all", es5: "es5", none: "none" });
        break;
      case "bracketSameLine":
      case "jsxBracketSameLine":
        js.bracketSameLine = Boolean(v);
        break;
      case "arrowParens":
        js.arrowParentheses = expect(tool, display, key, v, { always: "always", avoid: "asNeeded" });
        break;
      case "singleAttributePerLine":
        js.attributePosition = v ? "multiline" : "auto";
        break;
      case "objectWrap":
        formatter.expand = expect(tool, display, key, v, { preserve: "auto", collapse: "never" });
        break;
      case "plugins": {
        const { unknown } = stylePlugins({ plugins: v });
        if (unknown.length === 0) break; // plugins for other languages, or that only sort: nothing biome would print
        throw new ConfigError(
          { file: display },
          `${tool} plugin ${unknown.map((p) => `"${p}"`).join(", ")} cannot be honoured by poly's biome formatter`,
        );
      }
      case "insertFinalNewline":
        if (tool !== "oxfmt") throw new ConfigError({ file: display }, `prettier has no option "${key}"`);
        formatter.trailingNewline = Boolean(v);
        break;
      case "experimentalOperatorPosition":
        if (tool !== "oxfmt") throw new ConfigError({ file: display }, `prettier has no option "${key}"`);
        js.operatorLinebreak = expect(tool, display, key, v, { start: "before", end: "after" });
        break;
      default:
        if (NOT_BIOME.has(key) || (tool === "oxfmt" && OXFMT_NOT_BIOME.has(key))) break;
        throw new ConfigError({ file: display }, `${tool} option "${key}" has no biome equivalent poly can apply`);
    }
  }
  const out: Table = {};
  if (Object.keys(formatter).length > 0) out.formatter = formatter;
  if (Object.keys(js).length > 0) out.javascript = { formatter: js };
  if (Object.keys(css).length > 0) out.css = { formatter: css };
  return out;
}

/** A biome configuration equivalent to a prettier options object (with its `overrides`). */
export function prettierToBiome(options: Table, display: string): Table {
  return styleToBiome(options, display, "prettier");
}

/**
 * A biome configuration equivalent to an oxfmt options object (with its `overrides`): prettier's mapping under
 * oxfmt's defaults (width 100). Its `ignorePatterns` are {@link oxfmtIgnores}, not part of the result.
 */
export function oxfmtToBiome(options: Table, display: string): Table {
  const { ignorePatterns: _ignored, ...rest } = options;
  return styleToBiome(rest, display, "oxfmt");
}

/** A biome configuration equivalent to `tool`'s options object: {@link prettierToBiome} or {@link oxfmtToBiome}. */
export function styleToBiomeOf(tool: StyleTool, options: Table, display: string): Table {
  return tool === "oxfmt" ? oxfmtToBiome(options, display) : prettierToBiome(options, display);
}

/** oxfmt's `ignorePatterns` (gitignore patterns relative to the config file's directory), checked. */
export function oxfmtIgnores(options: Table, display: string): string[] {
  const list = options.ignorePatterns;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string")) {
    throw new ConfigError({ file: display }, `oxfmt "ignorePatterns" must be a list of strings`);
  }
  return list as string[];
}

function styleToBiome(options: Table, display: string, tool: StyleTool): Table {
  const { overrides, ...rest } = options;
  // The tool's defaults where biome's differ: biome indents with tabs; oxfmt's width is 100 (prettier's 80 is biome's).
  const defaults: Table = { formatter: { indentStyle: "space", ...(tool === "oxfmt" ? { lineWidth: 100 } : {}) } };
  const out = mergeTables(defaults, mapOptions(rest, display, tool));
  if (overrides !== undefined && overrides !== null) {
    if (!Array.isArray(overrides)) throw new ConfigError({ file: display }, `${tool} "overrides" must be a list`);
    out.overrides = overrides.map((o: Table) => {
      const { files, excluded } = overrideGlobs(o);
      const glob = (g: string) => g.includes("/") ? g.replace(/^\.\//, "") : `**/${g}`;
      return {
        includes: [...files.map(glob), ...excluded.map((g) => `!${glob(g)}`)],
        ...mapOptions((o.options ?? {}) as Table, display, tool),
      };
    });
  }
  return out;
}

/**
 * The `.editorconfig` properties of one file as the tool reads them beneath its own options (prettier's
 * `editorconfig-to-prettier`; oxfmt's documented five), as prettier-compatible options; those the tool's file sets
 * itself at its top level (`explicit`) are left out, as its file wins. A `max_line_length = off` (prettier: no limit)
 * is biome's widest line, 320.
 */
export function editorconfigStyle(
  props: Record<string, { value: string }>,
  tool: StyleTool,
  explicit: readonly string[],
): Table {
  const v = (k: string) => props[k]?.value;
  const int = (k: string) => {
    const s = v(k);
    return s !== undefined && /^[1-9]\d*$/.test(s) ? Number(s) : undefined;
  };
  const out: Table = {};
  if (v("indent_style") === "space") out.useTabs = false;
  else if (v("indent_style") === "tab" || v("indent_size") === "tab") out.useTabs = true;
  // editorconfig: tab_width defaults to a numeric indent_size.
  const size = tool === "oxfmt"
    ? int("indent_size") ?? int("tab_width")
    : out.useTabs === false && int("indent_size") !== undefined
    ? int("indent_size")
    : int("tab_width") ?? int("indent_size");
  if (size !== undefined) out.tabWidth = size;
  if (v("max_line_length") === "off" && tool === "prettier") out.printWidth = 320;
  else if (int("max_line_length") !== undefined) out.printWidth = int("max_line_length");
  const eol = v("end_of_line");
  if (eol === "lf" || eol === "crlf" || eol === "cr") out.endOfLine = eol;
  if (tool === "prettier") {
    if (v("quote_type") === "single") out.singleQuote = true;
    else if (v("quote_type") === "double") out.singleQuote = false;
  } else {
    const nl = v("insert_final_newline");
    if (nl === "true" || nl === "false") out.insertFinalNewline = nl === "true";
  }
  for (const k of explicit) delete out[k];
  return out;
}

/** {@link editorconfigStyle}'s options as biome's, to lay over the configuration's own top level. */
export function editorconfigToBiome(style: Table, display: string, tool: StyleTool): Table {
  return mapOptions(style, display, tool);
}

/** An override's `files` and `excludeFiles` globs as lists (prettier takes a string or a list for each). */
function overrideGlobs(o: Table): { files: string[]; excluded: string[] } {
  return {
    files: ([] as unknown[]).concat(o.files ?? []).map(String),
    excluded: ([] as unknown[]).concat(o.excludeFiles ?? []).map(String),
  };
}

/**
 * The languages prettier's and oxfmt's command lines format (with their built-in parsers): their ignores keep a file
 * of these from poly's formatters, and their options reach the formatters that take them.
 */
export const STYLE_LANGUAGES: ReadonlySet<string> = new Set([
  "javascript",
  "typescript",
  "json",
  "css",
  "graphql",
  "yaml",
  "markdown",
  "html",
  "vue",
]);

/**
 * Why the prettier-compatible configuration `native` keeps `absPath` from the formatter (oxfmt's `ignorePatterns`, a
 * `.prettierignore`: gitignore patterns relative to the configuration's directory), or undefined.
 */
export function styleIgnored(native: NativeEngineConfig, absPath: string): string | undefined {
  if (!native.formatIgnore) return undefined;
  const hit = ignoredBy(native.formatIgnore, native.root, absPath);
  if (!hit) return undefined;
  const where = relative(dirname(absPath), hit.file);
  if (hit.file.endsWith(".styluaignore")) return `ignored by StyLua: listed in "${where}"`;
  const tool = native.style?.tool ?? "prettier";
  if (hit.file.endsWith(".gitignore")) {
    return `ignored by ${tool}: matched by "${where}", which prettier reads and matches without regard to case`;
  }
  return hit.file.endsWith(".prettierignore")
    ? `ignored by ${tool}: listed in "${where}"`
    : `ignored by ${tool}: in ignorePatterns of "${where}"`;
}

/** oxfmt's options prettier does not have. */
export const OXFMT_ONLY: readonly string[] = [
  "ignorePatterns",
  "insertFinalNewline",
  "experimentalOperatorPosition",
  ...OXFMT_NOT_BIOME,
];

/** Keys of a prettier-compatible file that are no prettier option of one file. */
const NOT_PRETTIER = new Set(["overrides", "$schema", "plugins", ...OXFMT_ONLY]);

/**
 * The options of one file under a prettier-compatible configuration, as prettier resolves them: the top level, then
 * each of `overrides` whose `files` match the path relative to the configuration's directory and whose
 * `excludeFiles` do not (a glob without `/` matches the base name), later ones winning. The tool's own default width
 * (oxfmt's 100) comes first.
 */
export function styleOptionsFor(native: NativeEngineConfig, absPath: string): Table {
  return withoutKeys(resolvedFor(native, absPath), NOT_PRETTIER);
}

/** Keys of an oxfmt file that are no option of one file to oxfmt's `format()`. */
const NOT_OXFMT = new Set(["overrides", "$schema", "ignorePatterns"]);

/**
 * The options oxfmt's `format()` takes for one file under an oxfmt configuration: as {@link styleOptionsFor}
 * resolves them (`overrides` by path), oxfmt's own (sorting, JSDoc, `insertFinalNewline`, ...) kept.
 */
export function oxfmtOptionsFor(native: NativeEngineConfig, absPath: string): Table {
  return withoutKeys(resolvedFor(native, absPath), NOT_OXFMT);
}

/** The top level of `native`'s options, then each of its `overrides` that matches `absPath`, later ones winning. */
function resolvedFor(native: NativeEngineConfig, absPath: string): Table {
  const rel = relative(native.root, absPath).split(sep).join("/");
  const { overrides, ...top } = native.options as Table & { overrides?: Table[] };
  let out: Table = { ...(native.style?.tool === "oxfmt" ? { printWidth: 100 } : {}), ...top };
  for (const o of Array.isArray(overrides) ? overrides : []) {
    const { files, excluded } = overrideGlobs(o);
    const hit = (globs: string[]) => globs.some((g) => globMatcher(g)(rel));
    if (hit(files) && !hit(excluded)) out = { ...out, ...(o.options as Table ?? {}) };
  }
  return out;
}

function withoutKeys(options: Table, keys: ReadonlySet<string>): Table {
  for (const k of Object.keys(options)) if (keys.has(k)) delete options[k];
  return options;
}

/** The layout of one file's prettier-compatible options ({@link styleOptionsFor}), prettier's defaults filling the rest. */
export interface StyleLayout {
  printWidth: number;
  tabWidth: number;
  useTabs: boolean;
  /** prettier's `endOfLine` as poly's `line_ending` ("cr" is written as "lf"). */
  lineEnding: "lf" | "crlf" | "auto";
}

/** {@link StyleLayout} of one file's options. */
export function styleLayout(options: Table): StyleLayout {
  const eol = options.endOfLine;
  return {
    printWidth: typeof options.printWidth === "number" ? options.printWidth : 80,
    tabWidth: typeof options.tabWidth === "number" ? options.tabWidth : 2,
    useTabs: options.useTabs === true,
    lineEnding: eol === "crlf" ? "crlf" : eol === "auto" ? "auto" : "lf",
  };
}

/**
 * poly's `[defaults]` for a formatter whose output poly finishes (line endings, the final newline), under one file's
 * prettier-compatible options: prettier's `endOfLine`, and oxfmt's `insertFinalNewline`.
 */
export function styleDefaults<D extends { line_ending: string; final_newline: boolean }>(
  defaults: D,
  native: NativeEngineConfig,
  absPath: string,
): D {
  return {
    ...defaults,
    line_ending: styleLayout(styleOptionsFor(native, absPath)).lineEnding,
    final_newline: native.options.insertFinalNewline !== false,
  };
}

const globMatchers = new Map<string, (path: string) => boolean>();

function globMatcher(glob: string): (path: string) => boolean {
  let m = globMatchers.get(glob);
  if (!m) {
    // A glob without `/` matches the base name (picomatch's `basename` would also apply to globs with one).
    const g = glob.replace(/^\.\//, "");
    m = picomatch(g, { dot: true, basename: !g.includes("/") }) as (path: string) => boolean;
    globMatchers.set(glob, m);
  }
  return m;
}
