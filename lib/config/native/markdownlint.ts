/**
 * markdownlint's configuration, as markdownlint-cli2 finds it: in each directory
 * from the file's upward (to the repository root), the first of
 * `.markdownlint-cli2.jsonc` / `.markdownlint-cli2.yaml` (its `config` key) and
 * the first of `.markdownlint.jsonc` / `.json` / `.yaml` / `.yml`, combined as
 * {@link MarkdownlintReader.forDir} says. `extends` (a path relative to the file, or one of
 * markdownlint's own `markdownlint/style/<name>` sets) is read first, the
 * extending file's rules replacing the base's rule by rule, as markdownlint's
 * `readConfig` does. The configuration replaces poly's formatter-owned defaults
 * (see lib/engines/markdownlint/mod.ts); poly.toml's keys apply on top.
 *
 * A JavaScript configuration (`.markdownlint.cjs`/`.mjs`,
 * `.markdownlint-cli2.cjs`/`.mjs`) is read without running it (literal values
 * only, lib/config/native/_jsconfig.ts); what only running it would tell is an
 * error naming its line and column.
 *
 * cli2's `ignores` keep files from markdownlint as markdownlint-cli2 0.24.1 keeps them when run from the repository
 * root over every Markdown file, in two steps ({@link markdownlintExcluded}):
 *
 * - the root's `.markdownlint-cli2.*` `ignores` join its file search, negated (`getBaseOptions`, then globby and
 *   fast-glob, `dot: true`): a file a glob matches is not found, nor any file in a folder a glob matches where
 *   fast-glob skips the folder whole (a glob ending in `/**`, or whose last part has no wildcard: `vendor`,
 *   `docs/vendor`); `vendor/*` keeps `vendor/x/a.md`. Braces are expanded first, and a glob naming an existing folder
 *   is read as the folder's `/**` (globby's `expandDirectories`).
 * - Then the files of each configuration's folder (the nearest from the file's up holding any markdownlint file, else
 *   the root) are filtered by the `ignores` its options inherit (`lintFiles`, micromatch, `dot: true`): the nearest
 *   `.markdownlint-cli2.*` with the key, up to the root's, matched against the path relative to that folder. So the
 *   root's `*.md` also keeps `sub/a.md` from markdownlint where `sub/` holds a file of its own, and a nested file's
 *   `ignores` apply below its folder (not to the search).
 *
 * cli2's `gitignore` is read from the root's file only: `true`, and a glob naming `.gitignore` files, change nothing
 * (poly never lints what a `.gitignore` leaves out); a glob naming other ignore files is an error naming the key.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, posix, relative } from "node:path";
import picomatch from "picomatch";
import all from "markdownlint/style/all" with { type: "json" };
import cirosantilli from "markdownlint/style/cirosantilli" with { type: "json" };
import prettier from "markdownlint/style/prettier" with { type: "json" };
import relaxed from "markdownlint/style/relaxed" with { type: "json" };
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { parseError, readExtended } from "./_reading.ts";
import { parseJsonc } from "./_jsonc.ts";
import type { MarkdownlintIgnores, NativeEngineConfig, NativeSource } from "./types.ts";
import { isTable, type Table } from "../table.ts";

/** The names markdownlint-cli2 looks for in one directory, in its order; `.cjs`/`.mjs` ones are refused. */
export const MARKDOWNLINT_FILES = [
  ".markdownlint-cli2.jsonc",
  ".markdownlint-cli2.yaml",
  ".markdownlint-cli2.cjs",
  ".markdownlint-cli2.mjs",
  ".markdownlint.jsonc",
  ".markdownlint.json",
  ".markdownlint.yaml",
  ".markdownlint.yml",
  ".markdownlint.cjs",
  ".markdownlint.mjs",
] as const;

const CLI2_FILES = MARKDOWNLINT_FILES.filter((n) => n.startsWith(".markdownlint-cli2."));
const MD_FILES = MARKDOWNLINT_FILES.filter((n) => !n.startsWith(".markdownlint-cli2."));

const STYLES: Record<string, unknown> = {
  "markdownlint/style/all": all,
  "markdownlint/style/cirosantilli": cirosantilli,
  "markdownlint/style/prettier": prettier,
  "markdownlint/style/relaxed": relaxed,
};

/** What markdownlint-cli2 takes from a `.markdownlint-cli2.*` besides `config`: its `ignores` and `gitignore`. */
interface Cli2Keys {
  source: NativeSource;
  /** The `ignores` key: undefined where the file has none, null where it is null (no list, replacing one above). */
  ignores?: string[] | null;
  gitignore?: unknown;
}

/** Reads markdownlint's native files. */
export class MarkdownlintReader {
  /** Each `.markdownlint-cli2.*`'s keys, read once. */
  readonly #keys = new Map<string, Promise<Cli2Keys>>();
  /** The root's file search's `ignores` (folders named made theirs `/**`), by root. */
  readonly #search = new Map<string, Promise<MarkdownlintIgnores | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /**
   * The configuration governing `dir` ({@link governing}), with the cli2 `ignores` that keep its files from
   * markdownlint (`markdownlintIgnores`); undefined where neither is found up to `top`. Where `ignores` are found but
   * no configuration, the result only keeps files (`ignoreOnly`).
   */
  async forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const found = await this.governing(dir, top);
    const ignoring = await this.#ignoresFor(dir, top);
    if (ignoring.length === 0) return found;
    const listed = new Set(found?.files.map((f) => f.path));
    const sources: NativeSource[] = [];
    for (const { file } of ignoring) {
      if (listed.has(file)) continue;
      listed.add(file);
      sources.push((await this.#cli2Keys(file)).source);
    }
    if (!found) return { files: sources, options: {}, root: top, ignoreOnly: true, markdownlintIgnores: ignoring };
    return { ...found, files: [...sources, ...found.files], markdownlintIgnores: ignoring };
  }

  /**
   * markdownlint-cli2's `ignores` for the files of `dir` (see the module's documentation): the root's, as its search
   * applies them, and the nearest from `dir`'s configuration folder up that has the key, as `lintFiles` applies them
   * to that folder's files. The root's `gitignore` is checked here.
   */
  async #ignoresFor(dir: string, top: string): Promise<MarkdownlintIgnores[]> {
    let anchor: string | undefined;
    let nearest: { file: string; patterns: string[] } | undefined;
    let decided = false;
    for (let d = dir;; d = dirname(d)) {
      const present = await this.files.namesIn(d);
      const cliName = CLI2_FILES.find((n) => present.has(n));
      anchor ??= cliName || MD_FILES.some((n) => present.has(n)) ? d : undefined;
      if (cliName && anchor !== undefined && !decided) {
        const file = join(d, cliName);
        const { ignores } = await this.#cli2Keys(file);
        if (ignores !== undefined) {
          decided = true;
          if (ignores && ignores.length > 0) nearest = { file, patterns: ignores };
        }
      }
      if (d === top || dirname(d) === d) break;
    }
    const out: MarkdownlintIgnores[] = [];
    const search = await this.#searchOf(top);
    if (search) out.push(search);
    if (nearest) out.push({ ...nearest, base: anchor ?? top });
    return out;
  }

  /** The root's `ignores` as markdownlint-cli2's file search takes them (globby's own changes made), read once. */
  #searchOf(top: string): Promise<MarkdownlintIgnores | undefined> {
    let found = this.#search.get(top);
    if (!found) {
      found = (async () => {
        const present = await this.files.namesIn(top);
        const cliName = CLI2_FILES.find((n) => present.has(n));
        if (!cliName) return undefined;
        const file = join(top, cliName);
        const { ignores, gitignore } = await this.#cli2Keys(file);
        checkGitignore(gitignore, this.display(file));
        if (!ignores || ignores.length === 0) return undefined;
        const patterns: string[] = [];
        for (const glob of ignores) patterns.push(await searchGlob(glob, top));
        return { file, base: top, patterns, search: true as const };
      })();
      this.#search.set(top, found);
    }
    return found;
  }

  /** A `.markdownlint-cli2.*`'s `ignores` and `gitignore`, checked, read once. */
  #cli2Keys(path: string): Promise<Cli2Keys> {
    let found = this.#keys.get(path);
    if (!found) {
      found = (async () => {
        const shown = this.display(path);
        const f = await this.files.read(path);
        const doc = (await parseDoc(path, f.text, shown)) ?? {};
        if (!isTable(doc)) throw new ConfigError({ file: shown }, "the configuration must be an object");
        const { ignores, gitignore } = doc;
        const source = { path: f.path, hash: f.hash };
        if (ignores === undefined || ignores === null) return { source, ignores, gitignore };
        if (!Array.isArray(ignores) || !ignores.every((g) => typeof g === "string")) {
          throw new ConfigError({ file: shown }, `markdownlint-cli2 key "ignores" must be a list of globs`);
        }
        return { source, ignores, gitignore };
      })();
      this.#keys.set(path, found);
    }
    return found;
  }

  /**
   * The configuration governing `dir`, or undefined when no directory up to
   * `top` has one. As markdownlint-cli2 merges by inheritance
   * (`createDirInfos`), from the nearest directory holding any of these files
   * (cli2 lints a file under it): that directory's own `.markdownlint.*` wins; else the
   * nearest `.markdownlint.*` above, unless a `.markdownlint-cli2.*` `config` at
   * its level or below came first; else the `config` keys of every
   * `.markdownlint-cli2.*` up the tree, merged rule by rule, the nearest winning.
   */
  async governing(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const cli2: { dir: string; files: NativeSource[]; config: Table; origins: Record<string, string> }[] = []; // nearest first
    // cli2 lints a file under the nearest directory holding any of its files (the others fold into their parent).
    let anchored = false;
    for (let d = dir;; d = dirname(d)) {
      const present = await this.files.namesIn(d);
      const cliName = CLI2_FILES.find((n) => present.has(n));
      const mdName = MD_FILES.find((n) => present.has(n));
      const own = !anchored && (cliName !== undefined || mdName !== undefined);
      if (cliName) {
        const path = join(d, cliName);
        const used: NativeSource[] = [];
        const origins: Record<string, string> = {};
        const config = await this.load(path, used, [], origins);
        if (config) cli2.push({ dir: d, files: used, config, origins });
      }
      // That directory's own .markdownlint.* always wins; one above only while no cli2 `config` was seen.
      if (mdName && (own || cli2.length === 0)) {
        const path = join(d, mdName);
        const used: NativeSource[] = [];
        const origins: Record<string, string> = {};
        const options = (await this.load(path, used, [], origins)) ?? {};
        return { files: used, options, root: d, origins };
      }
      if (own) anchored = true;
      if (d === top || dirname(d) === d) break;
    }
    if (cli2.length === 0) return undefined;
    const files = cli2.toReversed().flatMap((c) => c.files);
    const options: Table = Object.assign({}, ...cli2.toReversed().map((c) => c.config));
    const origins: Record<string, string> = Object.assign({}, ...cli2.toReversed().map((c) => c.origins));
    return { files, options, root: cli2[0].dir, origins };
  }

  /** One file's configuration with its `extends` applied (undefined: a cli2 file without `config`). */
  private async load(
    path: string,
    used: NativeSource[],
    chain: string[],
    origins: Record<string, string> = {},
  ): Promise<Table | undefined> {
    const shown = this.display(path);
    const f = await readExtended(this.files, this.display, path, chain);
    const doc = (await parseDoc(path, f.text, shown)) ?? {};
    if (!isTable(doc)) throw new ConfigError({ file: shown }, "the configuration must be an object");
    let config: Table = doc;
    if (/\.markdownlint-cli2\./.test(path)) {
      if (doc.config === undefined) return undefined;
      if (!isTable(doc.config)) {
        throw new ConfigError({ file: shown }, `markdownlint-cli2 key "config" must be an object`);
      }
      for (const key of ["customRules", "markdownItPlugins"]) {
        if (Array.isArray(doc[key]) && doc[key].length > 0) {
          throw new ConfigError(
            { file: shown },
            `markdownlint-cli2 key "${key}" cannot be honoured (JavaScript rules)`,
          );
        }
      }
      config = doc.config;
    }
    used.push({ path: f.path, hash: f.hash });
    const { extends: base, $schema: _schema, ...own } = config;
    const noteOwn = () => {
      for (const key of Object.keys(own)) origins[key] = shown;
    };
    if (base === undefined || base === null) {
      noteOwn();
      return own;
    }
    if (typeof base !== "string") throw new ConfigError({ file: shown }, `markdownlint key "extends" must be a string`);
    let inherited: Table;
    if (STYLES[base]) {
      inherited = { ...(STYLES[base] as Table) };
      for (const key of Object.keys(inherited)) origins[key] = base;
    } else if (base.startsWith(".") || isAbsolute(base)) {
      const at = isAbsolute(base) ? base : join(dirname(path), base);
      used.pop();
      inherited = (await this.load(at, used, [...chain, path], origins)) ?? {};
      used.push({ path: f.path, hash: f.hash });
    } else {
      throw new ConfigError(
        { file: shown },
        `markdownlint key "extends" names the package "${base}", which poly cannot load: copy its rules into the file`,
      );
    }
    delete inherited.extends;
    noteOwn();
    return { ...inherited, ...own };
  }
}

/** A markdownlint file's document, parsed as its kind of file says (a JavaScript one read without running it). */
async function parseDoc(path: string, text: string, shown: string): Promise<unknown> {
  try {
    // npm `yaml` loads on first use: its evaluation costs ~50 ms, and most runs read no YAML configuration.
    const name = basename(path);
    return /\.ya?ml$/.test(path)
      ? (await import("yaml")).parse(text)
      : /\.[cm]js$/.test(path)
      ? (await import("./_jsconfig.ts")).staticExport(text, name, shown, {
        instead: `write it as ${
          name.startsWith(".markdownlint-cli2") ? ".markdownlint-cli2.jsonc" : ".markdownlint.json"
        }, or set [tools.markdownlint] native_config = false`,
      })
      : parseJsonc(text);
  } catch (e) {
    throw parseError(e, shown);
  }
}

/**
 * The root's cli2 `gitignore`: `true` (globby's `gitignore`) and a glob of `.gitignore` files only (its
 * `ignoreFiles`) leave out what poly's discovery already leaves out; a glob of other ignore files cannot be honoured.
 */
function checkGitignore(value: unknown, shown: string): void {
  if (typeof value !== "string" || posix.basename(value) === ".gitignore") return;
  throw new ConfigError(
    { file: shown },
    `markdownlint-cli2 key "gitignore" names ignore files other than .gitignore ("${value}"), which poly cannot read: ` +
      `list their patterns in "ignores", or set [tools.markdownlint] native_config = false`,
  );
}

/**
 * One of the root's `ignores` as globby 16 gives it to fast-glob's `ignore` (negated by markdownlint-cli2, then
 * un-negated): a leading `/` dropped (`normalizeNegativePattern`, the search's `**` glob being relative), then a glob
 * naming an existing folder, or a `**`-prefixed name without wildcard or extension, made the folder's `/**`
 * (`directoryToGlob`).
 */
async function searchGlob(glob: string, top: string): Promise<string> {
  const g = glob.startsWith("/") ? glob.slice(1) : glob;
  const plain = g.startsWith("!") ? g.slice(1) : g;
  const name = /\*\*\/([^/]+)$/.exec(plain)?.[1];
  const globstarFolder = name !== undefined && !/[*?[\]{}]/.test(name) &&
    !(posix.extname(name) && !name.startsWith("."));
  let folder = globstarFolder;
  if (!folder) {
    try {
      folder = (await Deno.stat(isAbsolute(plain) ? plain : join(top, plain))).isDirectory;
    } catch {
      folder = false;
    }
  }
  return folder ? posix.join(g, "**") : g;
}

/** fast-glob 3.3's micromatch options for its filters (`dot: true` as markdownlint-cli2 asks). */
const FAST_GLOB = {
  dot: true,
  matchBase: false,
  nobrace: false,
  nocase: false,
  noext: false,
  noglobstar: false,
  posix: true,
  strictSlashes: false,
};

/** One search glob as fast-glob's filters use it: its expression, and whether it skips the folders it matches. */
interface SearchMatcher {
  re: RegExp;
  absolute: boolean;
  skipsFolders: boolean;
}

/** One `lintFiles` glob (negated as markdownlint-cli2 negates it) as micromatch's list filter uses it. */
interface FilterMatcher {
  test: (path: string) => boolean;
  negated: boolean;
}

const searchMatchers = new Map<string, SearchMatcher[]>();
const filterMatchers = new Map<string, FilterMatcher[]>();

/** fast-glob's ignore patterns from the search's globs: braces expanded, `//` made `/`, one leading `!` dropped. */
function searchMatchersOf(patterns: string[]): SearchMatcher[] {
  const key = patterns.join("\0");
  let found = searchMatchers.get(key);
  if (!found) {
    found = patterns.flatMap(expandBraces).map((p) => p.replace(/(?!^)\/{2,}/g, "/")).map((p) => {
      const glob = p.startsWith("!") && p[1] !== "(" ? p.slice(1) : p;
      return {
        re: picomatch.makeRe(glob, FAST_GLOB),
        absolute: glob.startsWith("/"),
        skipsFolders: glob.endsWith("/**") || !isDynamicPattern(posix.basename(glob)),
      };
    });
    searchMatchers.set(key, found);
  }
  return found;
}

function filterMatchersOf(patterns: string[]): FilterMatcher[] {
  const key = patterns.join("\0");
  let found = filterMatchers.get(key);
  if (!found) {
    found = patterns.map((glob) => {
      const isMatch = picomatch(`!${glob}`, { dot: true }, true);
      const state = (isMatch as unknown as { state: { negated?: boolean; negatedExtglob?: boolean } }).state;
      return { test: (path: string) => isMatch(path), negated: Boolean(state.negated || state.negatedExtglob) };
    });
    filterMatchers.set(key, found);
  }
  return found;
}

/** Whether markdownlint-cli2's file search leaves out `rel` (relative to the root, `/`-separated): fast-glob's filters. */
function searchLeavesOut(patterns: string[], rel: string, absPath: string): boolean {
  const matchers = searchMatchersOf(patterns);
  // The deep filter: a folder a folder-skipping pattern matches is not read.
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    if (matchers.some((m) => m.skipsFolders && m.re.test(folder))) return true;
  }
  // The entry filter: relative patterns against the path, absolute ones against the absolute path.
  return matchers.some((m) => m.re.test(m.absolute ? absPath : rel));
}

/** Whether `lintFiles`'s micromatch filter, `micromatch(files, ignores.map(negate), { dot: true })`, drops `rel`. */
function filterDrops(patterns: string[], rel: string): boolean {
  const matchers = filterMatchersOf(patterns);
  let omitted = false;
  let kept = false;
  for (const m of matchers) {
    const matched = m.test(rel);
    if (m.negated ? !matched : matched) {
      if (m.negated) omitted = true;
      else {
        omitted = false;
        kept = true;
      }
    }
  }
  // micromatch keeps every file when all patterns are negated, else the ones a plain pattern matched; never omitted ones.
  const included = matchers.every((m) => m.negated) || kept;
  return !included || omitted;
}

/**
 * Why markdownlint-cli2's `ignores` keep `absPath` from markdownlint, or undefined (see the module's documentation):
 * names the `.markdownlint-cli2.*` whose list does.
 */
export function markdownlintExcluded(native: NativeEngineConfig, absPath: string): string | undefined {
  for (const list of native.markdownlintIgnores ?? []) {
    const rel = relative(list.base, absPath);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    const posixRel = rel.split("\\").join("/");
    if (list.search ? searchLeavesOut(list.patterns, posixRel, absPath) : filterDrops(list.patterns, posixRel)) {
      return `ignored by markdownlint: in ignores of "${relative(dirname(absPath), list.file)}"`;
    }
  }
  return undefined;
}

/** fast-glob's `isDynamicPattern` with its default options. */
function isDynamicPattern(pattern: string): boolean {
  if (pattern === "") return false;
  if (pattern.includes("\\")) return true;
  if (/[*?]|^!/.test(pattern) || /\[[^[]*]/.test(pattern) || /(?:^|[^!*+?@])\([^(]*\|[^|]*\)/.test(pattern)) {
    return true;
  }
  if (/[!*+?@]\([^(]*\)/.test(pattern)) return true;
  const open = pattern.indexOf("{");
  if (open < 0) return false;
  const close = pattern.indexOf("}", open + 1);
  return close >= 0 && /,|\.\./.test(pattern.slice(open, close));
}

/**
 * A glob's brace expansion as fast-glob asks micromatch's `braces` for it (`expand`, no duplicates, escapes kept,
 * empty results dropped): `{a,b}` alternatives, nested, and `{1..3}` / `{a..c}` ranges (with a step, zero-padded as
 * written); a brace without a comma or range stays as written.
 */
export function expandBraces(glob: string): string[] {
  if (!/\{.*\}/s.test(glob)) return [glob];
  return [...new Set(expandFrom(glob))].filter((p) => p !== "");
}

function expandFrom(glob: string): string[] {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") {
      if (depth++ === 0) start = i;
    } else if (c === "}" && depth > 0 && --depth === 0) {
      const body = glob.slice(start + 1, i);
      const alternatives = splitTopLevel(body);
      const choices = alternatives.length > 1 ? alternatives.flatMap(expandFrom) : rangeOf(body);
      const head = glob.slice(0, start);
      if (choices) {
        const tails = expandFrom(glob.slice(i + 1));
        return choices.flatMap((c) => tails.map((t) => head + c + t));
      }
      // Not expandable: kept as written, braces within it and after it expanded.
      const inner = expandFrom(body);
      const tails = expandFrom(glob.slice(i + 1));
      return inner.flatMap((b) => tails.map((t) => `${head}{${b}}${t}`));
    }
  }
  return [glob];
}

/** `body` split at its top-level commas (escaped ones and those within nested braces kept). */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

/** A `{1..3}`, `{01..10..3}` or `{a..e}` range's values, or undefined for a body that is none. */
function rangeOf(body: string): string[] | undefined {
  const m = /^(-?\d+|[^\\.{}])\.\.(-?\d+|[^\\.{}])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const numeric = /^-?\d+$/.test(m[1]) && /^-?\d+$/.test(m[2]);
  if (!numeric && (m[1].length !== 1 || m[2].length !== 1)) return undefined;
  const a = numeric ? Number(m[1]) : m[1].codePointAt(0)!;
  const b = numeric ? Number(m[2]) : m[2].codePointAt(0)!;
  const padded = numeric && (/^-?0\d/.test(m[1]) || /^-?0\d/.test(m[2]));
  const width = padded ? Math.max(m[1].length, m[2].length) : 0;
  const out: string[] = [];
  const dir = a <= b ? 1 : -1;
  for (let v = a; dir > 0 ? v <= b : v >= b; v += dir * step) {
    out.push(numeric ? pad(v, width) : String.fromCodePoint(v));
  }
  return out;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
  return n < 0 ? `-${s}` : s;
}

/** markdownlint's rules whose layout Markdown's formatter writes: each rule's alias and tags (markdownlint 0.42). */
const LAYOUT_RULES = {
  MD004: ["ul-style", "bullet", "ul"],
  MD007: ["ul-indent", "bullet", "ul", "indentation"],
  MD010: ["no-hard-tabs", "whitespace", "hard_tab"],
  MD030: ["list-marker-space", "ol", "ul", "whitespace"],
  MD049: ["emphasis-style", "emphasis"],
  MD050: ["strong-style", "emphasis"],
  MD055: ["table-pipe-style", "table"],
} as const;

/**
 * A rule's parameters under a markdownlint configuration, as markdownlint's `getEffectiveConfig` resolves them: the
 * `default` key, then every key naming the rule, its alias or one of its tags, in the file's order (`{ enabled: false }`
 * too); undefined where the rule is off.
 */
function ruleParams(options: Table, rule: keyof typeof LAYOUT_RULES): Table | undefined {
  const names = new Set([rule, ...LAYOUT_RULES[rule]].map((n) => n.toUpperCase()));
  const fallback = Object.entries(options).find(([k]) => k.toUpperCase() === "DEFAULT");
  let params: Table | undefined = fallback === undefined || fallback[1] ? {} : undefined;
  for (const [key, value] of Object.entries(options)) {
    if (!names.has(key.toUpperCase())) continue;
    params = !value
      ? undefined
      : !isTable(value)
      ? {}
      : value.enabled === undefined || value.enabled
      ? value
      : undefined;
  }
  return params;
}

/** What a markdownlint configuration asks of Markdown's formatter ({@link markdownLayout}). */
export interface MarkdownLayout {
  /** dprint's Markdown settings that write what the rules ask (`emphasisKind`, ...), and `code_block_tabs = false`. */
  dprint: Table;
  /** The rules and settings dprint cannot write (`MD007 indent 4`), where there are some. */
  cannot: string[];
}

/**
 * What the rules of a markdownlint configuration (`options`, lib/config/native/markdownlint.ts's) ask of the layout
 * dprint writes: list markers (MD004 `style`), emphasis and strong markers (MD049, MD050), and no tab in a code block
 * where MD010 checks them (poly's code-block formatters write shell's and Go's with tabs), which dprint's settings
 * give; a list indent other than 2 (MD007), more than one space after a list marker (MD030), a table without leading
 * and trailing pipes (MD055), plus markers or markers by level (MD004), which dprint cannot write. Found on mkdocs/mkdocs
 * (463 findings of its own configuration written by `poly fmt --fix`), DavidAnson/markdownlint (158 MD049),
 * linux-system-roles/network (11 MD010).
 */
export function markdownLayout(options: Table): MarkdownLayout {
  const dprint: Table = {};
  const cannot: string[] = [];
  const kind = (style: unknown, marks: Record<string, string>, rule: string) => {
    if (typeof style !== "string" || style === "consistent") return undefined;
    if (style in marks) return marks[style];
    cannot.push(`${rule} style "${style}"`);
  };
  const md004 = ruleParams(options, "MD004");
  const list = md004 && kind(md004.style, { dash: "dashes", asterisk: "asterisks" }, "MD004");
  if (list) dprint.unorderedListKind = list;
  const md049 = ruleParams(options, "MD049");
  const emphasis = md049 && kind(md049.style, { asterisk: "asterisks", underscore: "underscores" }, "MD049");
  if (emphasis) dprint.emphasisKind = emphasis;
  const md050 = ruleParams(options, "MD050");
  const strong = md050 && kind(md050.style, { asterisk: "asterisks", underscore: "underscores" }, "MD050");
  if (strong) dprint.strongKind = strong;
  const md007 = ruleParams(options, "MD007");
  if (md007 && md007.indent !== undefined && md007.indent !== 2) cannot.push(`MD007 indent ${md007.indent}`);
  if (md007?.start_indented === true) cannot.push("MD007 start_indented");
  const md030 = ruleParams(options, "MD030");
  for (const key of ["ul_single", "ol_single", "ul_multi", "ol_multi"]) {
    const spaces = md030?.[key];
    if (spaces !== undefined && spaces !== 1) cannot.push(`MD030 ${key} ${spaces}`);
  }
  const md055 = ruleParams(options, "MD055");
  const pipes = md055?.style;
  if (typeof pipes === "string" && pipes !== "consistent" && pipes !== "leading_and_trailing") {
    cannot.push(`MD055 style "${pipes}"`);
  }
  const md010 = ruleParams(options, "MD010");
  if (md010 && md010.code_blocks !== false) dprint.code_block_tabs = false;
  return { dprint, cannot };
}
