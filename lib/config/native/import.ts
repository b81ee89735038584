/**
 * `poly config import`: the poly.toml tables equivalent to the native
 * configuration governing one directory, with `[tools.<engine>] native_config =
 * false` so the native files stop applying. What poly.toml cannot say the same
 * way is refused (a {@link ConfigError} naming the file and key), never written
 * approximately:
 *
 * - ruff: its options become `[lint.python.ruff]` (the `lint` table and the
 *   top-level keys as ruff settings) and `[fmt.python.ruff]` (the `format` table
 *   and the top-level layout keys); `per-file-ignores` become poly's
 *   `[per-file-ignores]` (rebased onto the directory). A non-default `exclude`,
 *   `include`, `lint.exclude`/`format.exclude`, `per-file-target-version` or a negated per-file-ignore is refused.
 * - biome: `configuration = {...}` under
 *   `[lint.<lang>.biome]` and `[fmt.<lang>.biome]` for each of biome's languages,
 *   with biome's formatter defaults written out (poly's `[defaults]` would fill
 *   them otherwise). `includes`, `overrides` (paths) and oxfmt's `ignorePatterns` are refused.
 * - `.editorconfig` sections are per file: refused (keep the file; it is read).
 * - prettier's or oxfmt's file: that tool formats what it governs, under it as written (poly.toml cannot say its
 *   overrides, ignores and the `.editorconfig` beneath), so it stays read and nothing is imported from it, for biome
 *   either (named in the header). biome's manifest (`package.json`) is the package's own file: neither imported nor
 *   to be deleted.
 * - the files of the formatters poly does not run (yapf, SQLFluff, taplo, yamlfmt, the PHP style tools): they keep
 *   their language from poly's formatters, read as they are.
 * - `.shellcheckrc`, `.markdownlint*`, `.clang-format`, `rustfmt.toml`, `.oxlintrc.json`, `stylua.toml`, `mago.toml`: the tools
 *   get them as written, so they are left alone and keep applying (named in the
 *   header).
 *
 * Only the files governing the directory itself are imported; nested native
 * configs below it keep governing their own directories.
 *
 * @module
 */
import { relative, sep } from "node:path";
import { stringify } from "smol-toml";
import { ConfigError, PolyError } from "../../errors/mod.ts";
import type { ResolvedConfig } from "../types.ts";
import { RUFF_DEFAULT_EXCLUDE } from "./ruff.ts";
import type { NativeEngineConfig } from "./types.ts";
import { DENO_FMT, DENO_LINT, ESLINT, FORMAT_STYLE, KEPT_STYLE, NATIVE_ENGINES, NODE_MANIFEST } from "./mod.ts";
import { isTable, type Table, tableOf } from "../table.ts";

/** The languages biome lints and formats in poly. */
const BIOME_LANGUAGES = ["javascript", "typescript", "json", "css", "graphql"] as const;

/** biome 2.5's formatter defaults, written out so poly's `[defaults]` do not stand in for them. */
const BIOME_FORMATTER_DEFAULTS = { indentStyle: "tab", indentWidth: 2, lineWidth: 80, lineEnding: "lf" };

/** The result of an import: the TOML to add, and the native files it came from. */
export interface ImportResult {
  toml: string;
  /** The native files imported (empty: nothing to import). */
  files: string[];
  /** The native files poly keeps reading as they are. */
  kept: string[];
}

function refuse(native: NativeEngineConfig, display: (p: string) => string, key: string, why: string): never {
  const file = native.files.at(-1)?.path;
  throw new ConfigError({ file: file ? display(file) : "(native config)" }, `"${key}" cannot be imported: ${why}`);
}

function ruffTables(native: NativeEngineConfig, dir: string, display: (p: string) => string): Table {
  const defaults = RUFF_DEFAULT_EXCLUDE.join("\n");
  if ((native.exclude?.all ?? []).map((e) => e.pattern).join("\n") !== defaults) {
    refuse(native, display, "exclude", "poly.toml has no per-engine exclude (keep the ruff file)");
  }
  if (native.exclude?.lint || native.exclude?.fmt) {
    refuse(native, display, "lint.exclude", "poly.toml has no per-engine exclude");
  }
  if (native.include) refuse(native, display, "include", "poly.toml has no per-engine include");
  if (native.perFileTarget) {
    refuse(native, display, "per-file-target-version", "poly.toml has no per-file target version (keep the ruff file)");
  }
  const options = structuredClone(native.options);
  const lint = tableOf(options.lint);
  const format = tableOf(options.format);
  delete options.lint;
  delete options.format;
  const out: Table = {
    lint: { python: { ruff: { ...options, ...(Object.keys(lint).length > 0 ? { lint } : {}) } } },
    fmt: { python: { ruff: { ...options, ...format } } },
  };
  const pfi: Table = {};
  for (const p of native.perFileIgnores ?? []) {
    if (p.negated) refuse(native, display, `per-file-ignores."!${p.pattern}"`, "poly has no negated per-file ignores");
    const rel = relative(dir, p.base).split(sep).join("/");
    if (rel.startsWith("..")) refuse(native, display, "per-file-ignores", "its directory is above this one");
    const pattern = rel && p.pattern.includes("/") ? `${rel}/${p.pattern}` : p.pattern;
    pfi[pattern] = [...new Set([...(pfi[pattern] as string[] ?? []), ...(p.codes ?? [])])];
  }
  if (Object.keys(pfi).length > 0) out["per-file-ignores"] = pfi;
  return out;
}

function biomeTables(native: NativeEngineConfig, display: (p: string) => string): Table {
  if (native.unhonoured) throw new PolyError(`nothing can be imported: ${native.unhonoured}`);
  if (native.exclude) refuse(native, display, "files.includes", "poly.toml has no per-engine includes");
  if (native.formatIgnore) {
    refuse(native, display, "ignorePatterns", "poly.toml has no per-engine format ignores (keep the oxfmt file)");
  }
  if (native.options.overrides !== undefined) {
    refuse(native, display, "overrides", "their globs are relative to the biome file, not to poly.toml");
  }
  const configuration = structuredClone(native.options);
  configuration.formatter = { ...BIOME_FORMATTER_DEFAULTS, ...(configuration.formatter as Table ?? {}) };
  const lint: Table = {};
  const fmt: Table = {};
  for (const lang of BIOME_LANGUAGES) {
    lint[lang] = { biome: { configuration } };
    fmt[lang] = { biome: { configuration } };
  }
  return { lint, fmt };
}

/** Engines whose native files poly keeps reading as they are (all but ruff's and biome's): `poly config import` leaves them alone. */
const KEPT: ReadonlySet<string> = new Set(NATIVE_ENGINES.filter((id) => id !== "ruff" && id !== "biome"));

function merge(under: Table, over: Table): Table {
  const out: Table = { ...under };
  for (const [k, v] of Object.entries(over)) out[k] = isTable(v) && isTable(out[k]) ? merge(out[k] as Table, v) : v;
  return out;
}

/**
 * The poly.toml text equivalent to the native configuration of `config` (the
 * configuration of `dir`). Throws a ConfigError for what cannot be said the same
 * way; returns an empty `toml` when no native file governs the directory.
 */
export function importNative(config: ResolvedConfig, dir: string, display: (p: string) => string): ImportResult {
  let doc: Table = {};
  const files: string[] = [];
  const tools: Table = {};
  const kept: string[] = [];
  for (const [id, native] of Object.entries(config.native ?? {})) {
    if (native.files.length === 0) continue;
    // biome's manifest is the package's own package.json, not a configuration: nothing to import, nothing to delete.
    if (id === NODE_MANIFEST) continue;
    if (
      id === FORMAT_STYLE || id === DENO_FMT || id === DENO_LINT || id === ESLINT || id === KEPT_STYLE ||
      (id === "biome" && native.style)
    ) {
      // prettier's, oxfmt's or Deno's file keeps governing what that tool formats (biome's options mapped from it
      // included): imported into biome's tables it would hand those files to biome's formatter.
      for (const f of native.files) if (!kept.includes(f.path)) kept.push(f.path);
      continue;
    }
    if (KEPT.has(id)) {
      // Passed to the tool as written (shellcheck, clang-format, rustfmt read them themselves): nothing to translate.
      for (const f of native.files) if (!kept.includes(f.path)) kept.push(f.path);
      continue;
    }
    if (id === "editorconfig") {
      refuse(native, display, "[*] sections", ".editorconfig applies per file; poly keeps reading it");
    }
    doc = merge(doc, id === "ruff" ? ruffTables(native, dir, display) : biomeTables(native, display));
    tools[id] = { native_config: false };
    for (const f of native.files) if (!files.includes(f.path)) files.push(f.path);
  }
  if (files.length === 0) return { toml: "", files, kept };
  doc.tools = tools;
  const gone = files.filter((f) => !kept.includes(f));
  const header = [
    `# Imported by "poly config import" from: ${files.map(display).join(", ")}`,
    ...(gone.length > 0
      ? [
        `# These files no longer apply ([tools.<engine>] native_config = false); delete them when you are ready: ${
          gone.map(display).join(", ")
        }`,
      ]
      : []),
    ...(kept.length > 0 ? [`# Still read as they are (not imported): ${kept.map(display).join(", ")}`] : []),
  ];
  return { toml: `${header.join("\n")}\n${stringify(doc).trimEnd()}\n`, files, kept };
}
