/**
 * PHP's formatting configuration, found as `mago fmt` run in the file's folder finds it (Mago 1.x's
 * `src/config/mod.rs`), from the file's folder up to the repository root:
 *
 * - the nearest `mago.{toml,yaml,yml,json}`, then `mago.dist.{toml,yaml,yml,json}` (that precedence within one
 *   folder), its `extends` chain resolved as Mago resolves it (paths relative to the declaring file, a folder naming its
 *   `mago.*`, later layers winning: tables merged, arrays concatenated parent first, scalars replaced). The folder of
 *   the file is Mago's workspace (`[source] workspace` moves it). poly reads `php-version`, `[formatter]` (its
 *   `preset`, its settings in kebab case, its `excludes`), `[source]` `paths`, `includes`, `excludes`, `extensions` and
 *   `glob`, and `[parser] enable-short-tags`; the linter's and analyzer's tables are not formatting. The user-level
 *   `~/.config/mago.toml` is not read (results must not depend on files outside the repository and the cache key).
 * - the nearest file of a PHP style tool poly does not run (PHP-CS-Fixer, Laravel Pint, PHP_CodeSniffer, Easy
 *   Coding Standard, StyleCI), with or without a Mago configuration, or without either a `composer.json` requiring such a
 *   tool: the repository keeps its PHP style with it, so Mago would rewrite code it keeps on purpose; lib/run/plan.ts
 *   leaves its PHP unformatted, saying so, unless poly.toml names `[fmt.php.mago]` (the Mago configuration, if any,
 *   then governs).
 *
 * @module
 */
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import { type GlobsetOptions, globsetRegex } from "./_glob.ts";
import { nearestUp, parseError, parseTomlText, readExtended } from "./_reading.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";
import { isTable, type Table } from "../table.ts";

/** Mago's formats, in the order it takes them within one folder. */
const FORMATS = ["toml", "yaml", "yml", "json"] as const;

/** Mago's configuration file names, in the order it looks for them in one folder. */
export const MAGO_FILES: readonly string[] = [
  ...FORMATS.map((ext) => `mago.${ext}`),
  ...FORMATS.map((ext) => `mago.dist.${ext}`),
];

/** The files of PHP style tools poly does not run, by the tool's name. */
export const PHP_STYLE_FILES: Readonly<Record<string, string>> = {
  ".php-cs-fixer.php": "PHP-CS-Fixer",
  ".php-cs-fixer.dist.php": "PHP-CS-Fixer",
  ".php_cs": "PHP-CS-Fixer",
  ".php_cs.dist": "PHP-CS-Fixer",
  "pint.json": "Laravel Pint",
  "phpcs.xml": "PHP_CodeSniffer",
  "phpcs.xml.dist": "PHP_CodeSniffer",
  ".phpcs.xml": "PHP_CodeSniffer",
  ".phpcs.xml.dist": "PHP_CodeSniffer",
  "ecs.php": "Easy Coding Standard",
  // StyleCI's hosted PHP-CS-Fixer (Laravel's repositories: `preset: laravel`).
  ".styleci.yml": "StyleCI",
};

/** composer packages of those tools (a Laravel application runs Pint without a `pint.json`). */
const PHP_STYLE_PACKAGES: Readonly<Record<string, string>> = {
  "friendsofphp/php-cs-fixer": "PHP-CS-Fixer",
  "php-cs-fixer/shim": "PHP-CS-Fixer",
  "laravel/pint": "Laravel Pint",
  "squizlabs/php_codesniffer": "PHP_CodeSniffer",
  "symplify/easy-coding-standard": "Easy Coding Standard",
};

/** composer's manifest, where the packages above are required. */
export const COMPOSER_JSON = "composer.json";

const STYLE_NAMES = Object.keys(PHP_STYLE_FILES);
const COMPOSER_NAMES = [COMPOSER_JSON];

/**
 * The formatter settings of poly's Mago build (`@wasm-fmt/mago_fmt` 1.44.0, its `mago_fmt_settings.d.ts`): the build
 * ignores any other key, where Mago's command line refuses the file, so a key outside these cannot be honoured
 * (tests/config/native/mago_test.ts holds the list to the package's).
 */
export const MAGO_FORMATTER_KEYS: ReadonlySet<string> = new Set([
  "align-assignment-like",
  "align-named-arguments",
  "align-parameters",
  "always-break-attribute-named-argument-lists",
  "always-break-named-arguments-list",
  "array-table-style-alignment",
  "attributes-order",
  "break-promoted-properties-list",
  "classlike-brace-style",
  "closure-brace-style",
  "control-brace-style",
  "empty-line-after-class-like-constant",
  "empty-line-after-class-like-open",
  "empty-line-after-control-structure",
  "empty-line-after-declare",
  "empty-line-after-enum-case",
  "empty-line-after-method",
  "empty-line-after-namespace",
  "empty-line-after-opening-tag",
  "empty-line-after-property",
  "empty-line-after-symbols",
  "empty-line-after-trait-use",
  "empty-line-after-use",
  "empty-line-before-class-like-close",
  "empty-line-before-dangling-comments",
  "empty-line-before-return",
  "empty-line-between-same-symbols",
  "end-of-line",
  "expand-use-groups",
  "first-method-chain-on-new-line",
  "following-clause-on-newline",
  "function-brace-style",
  "indent-binary-expression-continuation",
  "indent-heredoc",
  "inline-abstract-property-hooks",
  "inline-empty-anonymous-class-braces",
  "inline-empty-classlike-braces",
  "inline-empty-closure-braces",
  "inline-empty-constructor-braces",
  "inline-empty-control-braces",
  "inline-empty-function-braces",
  "inline-empty-method-braces",
  "line-before-binary-operator",
  "method-brace-style",
  "method-chain-breaking-style",
  "method-chain-semicolon-on-next-line",
  "null-type-hint",
  "omit-redundant-arithmetic-binary-expression-parentheses",
  "omit-redundant-bitwise-binary-expression-parentheses",
  "opening-tag-on-own-line",
  "parameter-attribute-on-new-line",
  "parentheses-around-new-in-member-access",
  "parentheses-in-attribute",
  "parentheses-in-exit-and-die",
  "parentheses-in-new-expression",
  "preserve-breaking-argument-list",
  "preserve-breaking-array-like",
  "preserve-breaking-attribute-list",
  "preserve-breaking-condition-expression",
  "preserve-breaking-conditional-expression",
  "preserve-breaking-member-access-chain",
  "preserve-breaking-member-access-chain-first-method-on-same-line",
  "preserve-breaking-parameter-list",
  "preserve-redundant-logical-binary-expression-parentheses",
  "preset",
  "print-width",
  "remove-trailing-close-tag",
  "separate-attributes",
  "separate-class-like-members",
  "separate-trait-use",
  "separate-use-types",
  "single-quote",
  "sort-class-methods",
  "sort-uses",
  "space-after-additive-unary-prefix-operator",
  "space-after-bitwise-not-unary-prefix-operator",
  "space-after-cast-unary-prefix-operators",
  "space-after-decrement-unary-prefix-operator",
  "space-after-error-control-unary-prefix-operator",
  "space-after-increment-unary-prefix-operator",
  "space-after-logical-not-unary-prefix-operator",
  "space-after-reference-unary-prefix-operator",
  "space-around-assignment-in-declare",
  "space-around-concatenation-binary-operator",
  "space-before-arrow-function-parameter-list-parenthesis",
  "space-before-closure-parameter-list-parenthesis",
  "space-before-closure-use-clause-parenthesis",
  "space-before-hook-parameter-list-parenthesis",
  "space-within-grouping-parenthesis",
  "tab-width",
  "trailing-comma",
  "uppercase-literal-keyword",
  "use-tabs",
]);

/** `[source.glob]`'s keys (Mago's `GlobConfiguration`). */
const GLOB_KEYS = ["case-insensitive", "literal-separator", "backslash-escape", "empty-alternates"];

/** One entry that keeps files from `mago fmt`: as written, and the key that lists it. */
export interface MagoExclude {
  pattern: string;
  key: "source.excludes" | "source.includes" | "formatter.excludes";
}

/** What a Mago configuration gives poly's Mago engine (`NativeEngineConfig.options`; plain JSON, no absolute paths). */
export interface MagoOptions {
  /** `php-version`, as written (Mago's default: the latest PHP it knows). */
  phpVersion?: string;
  /** `[formatter]`'s settings (its `preset` included, its `excludes` not), for the build's `format`. */
  settings: Table;
  /** `[source] paths`, as written (empty: the whole workspace). */
  paths: string[];
  /** What keeps files from the formatter: `[source] excludes`, `[formatter] excludes`, and `[source] includes`. */
  excludes: MagoExclude[];
  /** `[source] extensions` (default `["php"]`). */
  extensions: string[];
  /** `[source.glob]`'s options that change matching. */
  glob: GlobsetOptions;
  /** `[parser] enable-short-tags = false`: poly's build always reads `<?` as an opening tag. */
  noShortTags?: true;
}

/** The configuration's own text: a table, or a ConfigError naming the file. */
async function parseLayer(f: NativeText, shown: string): Promise<Table> {
  const ext = extname(f.path).slice(1);
  let value: unknown;
  if (ext === "toml") return parseTomlText(f.text, shown);
  try {
    // npm `yaml` loads on first use (its evaluation costs ~50 ms; most runs read no YAML configuration).
    value = ext === "json" ? JSON.parse(f.text) : (await import("yaml")).parse(f.text);
  } catch (e) {
    throw parseError(e, shown);
  }
  if (value === null || value === undefined) return {};
  if (!isTable(value)) throw new ConfigError({ file: shown }, "a Mago configuration must be a table of keys");
  return value;
}

/** Mago's merge of a layer over what came before: tables merged, arrays concatenated (parent first), scalars replaced. */
export function mergeMago(base: Table, over: Table): Table {
  const out: Table = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = out[key];
    if (isTable(before) && isTable(value)) out[key] = mergeMago(before, value);
    else if (Array.isArray(before) && Array.isArray(value)) out[key] = [...before, ...value];
    else out[key] = value;
  }
  return out;
}

/** A string array under `key` of `table` (absent: empty), or a ConfigError. */
function strings(table: Table, key: string, name: string, shown: string): string[] {
  const value = table[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new ConfigError({ file: shown }, `mago key "${name}" must be a list of strings`);
  }
  return value as string[];
}

/** Reads Mago's configuration (and the other PHP style tools' files) for one folder. */
export class MagoReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /**
   * The configuration governing PHP's formatting in `dir` (bounded by `top`), or undefined where none does. A PHP
   * style tool's file beside a Mago configuration keeps the style (`keptBy`): many repositories keep a `mago.toml` for
   * Mago's linter and analyzer and format with PHP-CS-Fixer (Strategy11/formidable-forms: its CI runs
   * `php-cs-fixer fix --dry-run`, and Mago's formatter would rewrite 547 of its 638 files); the Mago configuration still
   * governs where poly.toml names `[fmt.php.mago]`.
   */
  async forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const own = await this.#nearest(dir, top, MAGO_FILES);
    const style = await this.#nearest(dir, top, STYLE_NAMES);
    const key = `${own ?? ""}\0${style ?? ""}`;
    let found = this.#found.get(key);
    if (!found) {
      found = (async () => {
        if (!own) return style ? keptConfig(await this.files.read(style), styleTool(style)) : undefined;
        if (!style) return await this.#read(own, top);
        const f = await this.files.read(style);
        try {
          const config = await this.#read(own, top);
          return { ...config, files: [...config.files, { path: f.path, hash: f.hash }], keptBy: styleTool(style) };
        } catch (e) {
          if (e instanceof ConfigError) return keptConfig(f, styleTool(style)); // not formatted either way
          throw e;
        }
      })();
      this.#found.set(key, found);
    }
    return (await found) ?? await this.#required(dir, top);
  }

  /** Per list of names, the nearest folder's first file of them by folder (a tree's folders walked once each). */
  readonly #nearestBy = new Map<readonly string[], Map<string, Promise<string | undefined>>>();

  /** The nearest folder's first file of `names`, from `dir` up to `top`. */
  #nearest(dir: string, top: string, names: readonly string[]): Promise<string | undefined> {
    let memo = this.#nearestBy.get(names);
    if (!memo) this.#nearestBy.set(names, memo = new Map());
    return nearestUp(memo, dir, top, async (d) => {
      const present = await this.files.namesIn(d);
      const name = names.find((n) => present.has(n));
      return name === undefined ? undefined : join(d, name);
    });
  }

  /** The PHP style tool the nearest `composer.json` requires (where no Mago or style tool's file governs). */
  async #required(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const composer = await this.#nearest(dir, top, COMPOSER_NAMES);
    if (!composer) return undefined;
    let found = this.#found.get(composer);
    if (!found) this.#found.set(composer, found = this.#composer(composer));
    return await found;
  }

  /** The PHP style tool the `composer.json` at `composer` requires, if any. */
  async #composer(composer: string): Promise<NativeEngineConfig | undefined> {
    const f = await this.files.read(composer);
    let manifest: unknown;
    try {
      manifest = JSON.parse(f.text);
    } catch {
      return undefined; // not composer's to judge here: a manifest that does not parse names no tool
    }
    if (!isTable(manifest)) return undefined;
    for (const field of ["require-dev", "require"]) {
      const wanted = manifest[field];
      if (!isTable(wanted)) continue;
      const tool = Object.keys(wanted).map((name) => PHP_STYLE_PACKAGES[name.toLowerCase()]).find(Boolean);
      if (tool) return keptConfig(f, `${tool} (required in ${COMPOSER_JSON})`);
    }
    return undefined;
  }

  /** The configuration of the Mago file `path` (its `extends` resolved). */
  async #read(path: string, top: string): Promise<NativeEngineConfig> {
    const used: NativeSource[] = [];
    const merged = await this.#layer(path, [], used, top);
    const shown = this.display(path);
    const options = magoOptions(merged, shown);
    const source = isTable(merged.source) ? merged.source : {};
    const workspace = typeof source.workspace === "string" ? resolve(dirname(path), source.workspace) : dirname(path);
    const origins: Record<string, string> = {};
    if (options.phpVersion !== undefined) origins["php-version"] = shown;
    for (const key of Object.keys(options.settings)) origins[`formatter.${key}`] = shown;
    return { files: used, options: options as unknown as Table, root: workspace, origins };
  }

  /**
   * One layer and what it extends, merged (Mago's `load_layer`); `used` gathers the files, farthest first. `visited`
   * holds every file of the load so far: Mago refuses one met twice, in a cycle or not.
   */
  async #layer(path: string, visited: string[], used: NativeSource[], top: string): Promise<Table> {
    const f = await readExtended(this.files, this.display, path, visited);
    visited.push(path);
    const shown = this.display(path);
    const own = await parseLayer(f, shown);
    let merged: Table = {};
    const extended = own.extends;
    const entries = extended === undefined ? [] : typeof extended === "string" ? [extended] : extended;
    if (!Array.isArray(entries) || entries.some((e) => typeof e !== "string")) {
      throw new ConfigError({ file: shown }, 'mago key "extends" must be a path or a list of paths');
    }
    for (const entry of entries as string[]) {
      const target = resolve(dirname(path), entry);
      const rel = relative(top, target);
      if (rel.startsWith("..") || isAbsolute(rel)) {
        throw new ConfigError(
          { file: shown },
          `mago key "extends" names "${entry}", outside the repository: poly reads no configuration from there`,
        );
      }
      let layer = target;
      const names = await this.files.entryNames(target); // undefined: not a folder
      if (names) {
        const inside = FORMATS.map((ext) => `mago.${ext}`).find((name) => names.has(name));
        if (!inside) continue; // Mago skips a folder without a configuration of its own, warning
        layer = join(target, inside);
      } else if (!(FORMATS as readonly string[]).includes(extname(target).slice(1))) {
        throw new ConfigError(
          { file: shown },
          `mago key "extends" names "${entry}", which is not a .toml, .yaml, .yml or .json file`,
        );
      }
      merged = mergeMago(merged, await this.#layer(layer, visited, used, top));
    }
    used.push({ path: f.path, hash: f.hash });
    const { extends: _, ...keys } = own;
    return mergeMago(merged, keys);
  }
}

/** A style tool's file as the plan names it: `PHP-CS-Fixer (.php-cs-fixer.dist.php)`. */
function styleTool(path: string): string {
  return `${PHP_STYLE_FILES[basename(path)]} (${basename(path)})`;
}

/** The configuration of a tool that keeps PHP's style, not Mago's: what lib/run/plan.ts names. */
function keptConfig(f: NativeText, keptBy: string): NativeEngineConfig {
  return { files: [{ path: f.path, hash: f.hash }], options: {}, root: dirname(f.path), keptBy, ignoreOnly: true };
}

/** What poly's Mago engine takes from a merged configuration; what it cannot honour is a ConfigError. */
export function magoOptions(merged: Table, shown: string): MagoOptions {
  const bad = (why: string) => new ConfigError({ file: shown }, why);
  const formatter = merged.formatter === undefined ? {} : merged.formatter;
  const source = merged.source === undefined ? {} : merged.source;
  const parser = merged.parser === undefined ? {} : merged.parser;
  for (const [key, value] of [["formatter", formatter], ["source", source], ["parser", parser]] as const) {
    if (!isTable(value)) throw bad(`mago key "${key}" must be a table`);
  }
  const settings: Table = {};
  for (const [key, value] of Object.entries(formatter as Table)) {
    if (key === "excludes") continue;
    if (!MAGO_FORMATTER_KEYS.has(key)) {
      throw bad(
        `mago key "formatter.${key}" cannot be honoured: poly's Mago build (1.44.0) has no such setting ` +
          `(Mago refuses an unknown one too)`,
      );
    }
    settings[key] = value;
  }
  const php = merged["php-version"];
  if (php !== undefined && typeof php !== "string") throw bad('mago key "php-version" must be a string ("8.3")');
  const glob = isTable((source as Table).glob) ? (source as Table).glob as Table : {};
  for (const key of Object.keys(glob)) {
    if (!GLOB_KEYS.includes(key)) throw bad(`mago key "source.glob.${key}" is not one of Mago's`);
  }
  const src = source as Table;
  // `mago fmt` loads no dependency: what `includes` names is kept from it as an exclude (the orchestrator's).
  const lists: [Table, string, MagoExclude["key"]][] = [
    [src, "excludes", "source.excludes"],
    [formatter as Table, "excludes", "formatter.excludes"],
    [src, "includes", "source.includes"],
  ];
  const excludes: MagoExclude[] = lists.flatMap(([table, field, key]) =>
    strings(table, field, key, shown).map((pattern) => ({ pattern, key }))
  );
  const extensions = src.extensions === undefined ? ["php"] : strings(src, "extensions", "source.extensions", shown);
  return {
    ...(php !== undefined ? { phpVersion: php } : {}),
    settings,
    paths: strings(src, "paths", "source.paths", shown),
    excludes,
    extensions,
    glob: { literalSeparator: glob["literal-separator"] === true, caseInsensitive: glob["case-insensitive"] === true },
    ...((parser as Table)["enable-short-tags"] === false ? { noShortTags: true as const } : {}),
  };
}

/** Whether a pattern has one of globset's metacharacters (Mago's `contains_glob_metacharacters`). */
const GLOBBY = /[*?[{]/;

/**
 * Why `mago fmt`, run in the configuration's workspace (`native.root`), leaves `absPath` alone, or undefined where it
 * formats it (Mago's database loader): an entry of `excludes` (a glob with `*`, matched against the absolute and the
 * workspace-relative path, and against each folder above it when it ends in `/*`, `/**` or `/**\/*`; any other entry a
 * path, the file or a folder above it), not under `paths`, or an extension not in `extensions` (a file `paths` names
 * itself excepted).
 */
export function magoExcluded(native: NativeEngineConfig, absPath: string): string | undefined {
  if (native.ignoreOnly || native.unhonoured) return undefined;
  const o = native.options as unknown as MagoOptions;
  const ws = native.root;
  const where = native.files.at(-1) ? `"${relative(dirname(absPath), native.files.at(-1)!.path)}"` : "Mago's file";
  const relOf = (path: string) => relative(ws, path).split(sep).join("/");
  // Mago matches a glob against the absolute path and the workspace-relative one.
  const hits = (re: RegExp, path: string) => re.test(path) || re.test(relOf(path));
  const rel = relOf(absPath);
  if (rel.startsWith("../") || isAbsolute(rel)) return `outside mago's workspace (${where})`;
  const folders: string[] = [];
  for (let d = dirname(absPath); d !== ws && d.startsWith(ws + sep); d = dirname(d)) folders.push(d);
  for (const { pattern, key } of o.excludes) {
    let excluded: boolean;
    if (pattern.includes("*")) {
      const glob = pattern.startsWith("./") ? join(ws, pattern.slice(2)) : pattern;
      const pruned = glob.replace(/\/\*\*\/\*$|\/\*\*$|\/\*$/, "");
      const prunes = pruned !== glob && pruned !== "" && pruned !== "*" && pruned !== "**";
      excluded = hits(globsetRegex(glob, o.glob), absPath) ||
        (prunes && folders.some((d) => hits(globsetRegex(pruned, o.glob), d)));
    } else {
      const path = resolve(ws, pattern);
      excluded = absPath === path || absPath.startsWith(path.endsWith(sep) ? path : path + sep);
    }
    if (excluded) return `excluded from mago by "${pattern}" (${key} in ${where})`;
  }
  let named = false;
  if (o.paths.length > 0) {
    let covered = false;
    for (const root of o.paths) {
      const path = resolve(ws, root);
      if (GLOBBY.test(root)) {
        // The `glob` crate walks a pattern's components: `*` stays within one, `**` crosses folders. What it matches
        // still passes the extension check, as a walked file does.
        if (globsetRegex(path, { literalSeparator: true }).test(absPath)) covered = true;
      } else if (absPath === path) covered = named = true;
      else if (absPath.startsWith(path + sep)) covered = true;
      if (named) break; // a later entry may still name the file itself
    }
    if (!covered) return `not in mago's source paths (source.paths in ${where})`;
  }
  if (!named && !o.extensions.includes(extname(absPath).slice(1))) {
    return `not one of mago's source extensions (source.extensions in ${where})`;
  }
  return undefined;
}
