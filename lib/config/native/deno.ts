/**
 * Deno's formatter and linter configuration: the `fmt` key of `deno.json` / `deno.jsonc`, which `deno fmt` formats
 * JavaScript, TypeScript, JSON and Markdown under (dprint's plugins with Deno's settings; poly's dprint engine runs the
 * same plugins under them, lib/engines/dprint/; see {@link DENO_LANGUAGES}), and its `lint` key, which `deno lint`
 * lints under (lib/engines/deno_lint/ runs it). Read as Deno reads them:
 *
 * - the nearest `deno.json` / `deno.jsonc` from the file's directory up (`deno.json` first within a directory); in a
 *   workspace (a farther file with a `workspace` key), the root's `fmt` beneath the member's, key by key;
 * - `fmt`'s (`lint`'s) options written flat (`"lineWidth": 120`) or under `fmt.options` (Deno 1's shape), its
 *   `include` and `exclude` (or `fmt.files.include` / `exclude`), and the file's top-level `exclude`: paths or globs
 *   relative to the file's directory, a directory covering what is below it, a `!` entry of `exclude` taking a path
 *   back;
 * - a `deno.json` without `fmt` is Deno's formatter at its defaults, which governs only where no other formatter's
 *   file does (lib/config/native/mod.ts): a Deno project's formatter is `deno fmt` whether or not it sets an option.
 *
 * @module
 */
import { dirname, join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { parseJsonc } from "./_jsonc.ts";
import { parseError } from "./_reading.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import type { NativeEngineConfig, NativePattern, NativeSource } from "./types.ts";

/** Deno's config file names in one directory, in its order. */
export const DENO_FILES = ["deno.json", "deno.jsonc"] as const;

/**
 * The languages `deno fmt` formats with dprint's plugins, which poly formats under its configuration with the same
 * plugins. In Markdown, prose is not rewrapped (`textWrap: "maintain"` unless `proseWrap` is `"never"`): the Markdown
 * plugin poly ships (`@dprint/markdown` 0.28.1) breaks a line inside inline code and link text where Deno's does not,
 * so rewrapping would call files unformatted that `deno fmt` accepts (11 of denoland/fresh's 117, 47 of poly's own
 * 68); a paragraph Deno would rewrap is therefore not flagged.
 */
export const DENO_LANGUAGES: ReadonlySet<string> = new Set(["javascript", "typescript", "json", "markdown"]);

type Table = Record<string, unknown>;

/** One tool's table of a `deno.json` (`fmt` or `lint`): its options and paths. */
interface DenoTable {
  options: Table;
  include?: string[];
  exclude: string[];
}

/** One read `deno.json`: its `fmt` and `lint` tables (absent where it has none), or why it cannot be read. */
interface DenoFile {
  source: NativeSource;
  dir: string;
  fmt?: DenoTable;
  lint?: DenoTable;
  /** The file's top-level `exclude`, which every subcommand honours. */
  exclude: string[];
  workspace: boolean;
  error?: string;
}

/** Which of Deno's tools: `deno fmt` or `deno lint`. */
export type DenoTool = "fmt" | "lint";

/** One tool's configuration from the governing `deno.json`, and whether a key of its own (`fmt`, `lint`) says so. */
export interface DenoGoverning {
  config: NativeEngineConfig;
  explicit: boolean;
}

/** Reads the `deno.json` governing a directory, for `deno fmt` or `deno lint`. */
export class DenoReader {
  readonly #read = new Map<string, Promise<DenoFile>>();
  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** The `deno.json` file in `dir`, if any. */
  async #fileIn(dir: string): Promise<string | undefined> {
    const names = await this.files.namesIn(dir);
    const name = DENO_FILES.find((n) => names.has(n));
    return name && join(dir, name);
  }

  #load(path: string): Promise<DenoFile> {
    let found = this.#read.get(path);
    if (!found) this.#read.set(path, found = this.files.read(path).then((t) => denoFile(t, this.display(path))));
    return found;
  }

  /**
   * The configuration of Deno's `fmt` and of its `lint` governing `dir` (bounded by `top`), each with `explicit`
   * telling whether its key says so; undefined where no `deno.json` is found.
   */
  async forDir(dir: string, top: string): Promise<Record<DenoTool, DenoGoverning> | undefined> {
    const chain: DenoFile[] = []; // nearest first
    for (let d = dir;; d = dirname(d)) {
      const path = await this.#fileIn(d);
      if (path) chain.push(await this.#load(path));
      if (d === top || dirname(d) === d) break;
    }
    const member = chain[0];
    if (!member) return undefined;
    const root = chain.slice(1).findLast((f) => f.workspace);
    const used = root ? [root, member] : [member];
    return { fmt: this.#governing(used, "fmt"), lint: this.#governing(used, "lint") };
  }

  /** The configuration of `tool` from the files `used` (a workspace root, then the member). */
  #governing(used: DenoFile[], tool: DenoTool): DenoGoverning {
    const member = used[used.length - 1];
    const error = used.find((f) => f.error)?.error;
    const options: Table = {};
    for (const f of used) Object.assign(options, f[tool]?.options ?? {});
    const pattern = (f: DenoFile, p: string): NativePattern => {
      const negated = p.startsWith("!");
      const path = (negated ? p.slice(1) : p).replace(/^\.\//, "").replace(/\/+$/, "");
      return { pattern: path, base: f.dir, ...(negated ? { negated } : {}) };
    };
    // The nearest `include` (the member's, else the root's), its paths relative to the file that wrote them.
    const including = [...used].reverse().find((f) => f[tool]?.include);
    const config: NativeEngineConfig = {
      files: used.map((f) => f.source),
      options,
      root: member.dir,
      deno: true,
      ...(including ? { include: including[tool]!.include!.map((p) => pattern(including, p)) } : {}),
      exclude: { [tool]: used.flatMap((f) => [...f.exclude, ...f[tool]?.exclude ?? []].map((p) => pattern(f, p))) },
      ...(error ? { unhonoured: error } : {}),
      origins: Object.fromEntries(
        used.flatMap((f) =>
          Object.keys(f[tool]?.options ?? {}).map((k) => [`deno.${tool}.${k}`, this.display(f.source.path)])
        ),
      ),
    };
    return { config, explicit: used.some((f) => f[tool] !== undefined) };
  }
}

function denoFile(file: NativeText, display: string): DenoFile {
  const dir = dirname(file.path);
  const source = { path: file.path, hash: file.hash };
  let doc: unknown;
  try {
    doc = parseJsonc(file.text);
  } catch (e) {
    return { source, dir, exclude: [], workspace: false, error: parseError(e, display).message };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    return { source, dir, exclude: [], workspace: false, error: `${display}: not a JSON object` };
  }
  const top = doc as Table;
  const strings = (v: unknown, key: string): string[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
      throw new Error(`${display}: "${key}" must be a list of paths`);
    }
    return v as string[];
  };
  // A tool's table: its options written flat or under `options` (Deno 1), its paths flat or under `files`.
  const table = (key: DenoTool): DenoTable | undefined => {
    const raw = top[key];
    if (raw === undefined) return undefined;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new Error(`${display}: "${key}" must be an object`);
    }
    const { options: legacy, files = {}, include, exclude, ...flat } = raw as Table;
    return {
      options: { ...(legacy as Table ?? {}), ...flat },
      include: strings(include ?? (files as Table).include, `${key}.include`),
      exclude: strings(exclude ?? (files as Table).exclude, `${key}.exclude`) ?? [],
    };
  };
  try {
    const fmt = table("fmt");
    const lint = table("lint");
    return {
      source,
      dir,
      ...(fmt ? { fmt } : {}),
      ...(lint ? { lint } : {}),
      exclude: strings(top.exclude, "exclude") ?? [],
      workspace: top.workspace !== undefined,
    };
  } catch (e) {
    return { source, dir, exclude: [], workspace: false, error: (e as Error).message };
  }
}

const matchers = new Map<string, (path: string) => boolean>();

/** Whether Deno's path or glob `p` (relative to its file's directory) covers `absPath`: the path, or one above it. */
function covers(p: NativePattern, absPath: string): boolean {
  const rel = relative(p.base, absPath).split(sep).join("/");
  if (rel.startsWith("..")) return false;
  if (!/[*?[{]/.test(p.pattern)) return p.pattern === "" || rel === p.pattern || rel.startsWith(p.pattern + "/");
  let m = matchers.get(p.pattern);
  if (!m) matchers.set(p.pattern, m = picomatch(p.pattern, { dot: true }) as (path: string) => boolean);
  for (let r = rel; r !== "." && r !== ""; r = dirname(r)) if (m(r)) return true;
  return false;
}

/**
 * Why the configuration of Deno's `tool` keeps `absPath` from it (its `exclude` and the top-level one, its `include`),
 * or undefined.
 */
export function denoExcluded(native: NativeEngineConfig, absPath: string, tool: DenoTool): string | undefined {
  let hit: NativePattern | undefined;
  for (const p of native.exclude?.[tool] ?? []) if (covers(p, absPath)) hit = p.negated ? undefined : p;
  const file = (p: NativePattern) =>
    native.files.find((f) => dirname(f.path) === p.base)?.path ?? join(p.base, DENO_FILES[0]);
  if (hit) return `excluded from deno ${tool} by "${hit.pattern}" (in ${relative(dirname(absPath), file(hit))})`;
  if (native.include && !native.include.some((p) => covers(p, absPath))) {
    return `not in deno ${tool}'s include (in ${relative(dirname(absPath), file(native.include[0]))})`;
  }
  return undefined;
}
