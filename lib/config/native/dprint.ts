/**
 * dprint's own configuration: the nearest `dprint.json` (then `dprint.jsonc`, `.dprint.json`, `.dprint.jsonc`) from a
 * file's directory up to the repository root, as the `dprint` command line finds it. Where it governs, dprint formats
 * what its listed plugins format, under it:
 *
 * - `plugins`: the plugins poly runs too (dprint's `typescript`, `json`, `markdown`, `toml`, `dockerfile`, at poly's
 *   releases of them; one the URL pins at another release leaves to it what poly's would change: `otherReleases`)
 *   format their languages with the file's global `lineWidth`, `indentWidth`, `useTabs`, `newLineKind` and the
 *   plugin's own section (`"typescript": {...}`) as written; a language a plugin poly does not run formats (`biome`,
 *   `ruff`, `malva`, `markup_fmt`, `pretty_yaml`, `pretty_graphql`, `prettier`) is not checked, saying so
 *   (lib/run/plan.ts); a language no listed plugin formats is not dprint's;
 * - `includes` / `excludes`: globs relative to the file's folder (a folder's path covers what is below it); dprint
 *   leaves out `node_modules` folders too;
 * - `extends`: a local file (or several) read first, the extending file's keys winning (its plugin sections merged key
 *   by key); one named by URL cannot be read without the network: a configuration poly cannot honour.
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { parseJsonc } from "./_jsonc.ts";
import { nearestUp, parseError } from "./_reading.ts";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import type { NativeEngineConfig, NativeSource, OtherRelease } from "./types.ts";
import { isTable, type Table } from "../table.ts";

/** dprint's config file names in one directory, in its order. */
export const DPRINT_FILES = ["dprint.json", "dprint.jsonc", ".dprint.json", ".dprint.jsonc"] as const;

/** The plugins poly runs, by the name in their URL, and their releases (deno.json's pins; lib/engines/dprint). */
export const DPRINT_PLUGIN_RELEASES: Readonly<Record<string, string>> = {
  typescript: "0.96.1",
  json: "0.24.0",
  markdown: "0.28.1",
  toml: "0.8.0",
  dockerfile: "0.6.0",
};

const OWN_PLUGINS = new Set(Object.keys(DPRINT_PLUGIN_RELEASES));

/**
 * The release a plugin URL or npm specifier names (`json-0.23.0.wasm`, `npm:@dprint/json@0.23.0`, either with a
 * checksum after `@`), or undefined where it names none (`json-latest.wasm`, a local path without one).
 */
export function pluginVersion(url: string): string | undefined {
  if (url.startsWith("npm:")) return /^npm:(?:@[^/]+\/)?[^@/]+@(\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(url)?.[1];
  const last = url.replace(/@[0-9a-f]+$/, "").split(/[/\\]/).pop() ?? "";
  return /-v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\.(?:wasm|json|exe)$/.exec(last)?.[1];
}

/** The languages other plugins format (by the name in their URL), which poly then does not check. */
const FOREIGN_PLUGINS: Record<string, string[]> = {
  biome: ["javascript", "typescript", "json", "css", "graphql"],
  ruff: ["python"],
  malva: ["css"],
  markup_fmt: ["html", "vue", "svelte", "astro"],
  markup: ["html", "vue", "svelte", "astro"],
  pretty_yaml: ["yaml"],
  yaml: ["yaml"],
  pretty_graphql: ["graphql"],
  graphql: ["graphql"],
  prettier: ["javascript", "typescript", "json", "css", "graphql", "markdown", "yaml", "html", "vue"],
};

const GLOBAL_KEYS = ["lineWidth", "indentWidth", "useTabs", "newLineKind"];

/** A plugin's name from its URL or npm specifier (`typescript-0.93.0.wasm`, `npm:dprint-plugin-malva@0.16.0` → `malva`). */
export function pluginName(url: string): string {
  if (url.startsWith("npm:")) {
    // `npm:@scope/name@version/...` or `npm:name@version`: the package's name.
    const spec = url.slice(4);
    const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    return (pkg.replace(/(?<=.)@.*$/, "").split("/").pop() ?? pkg).replace(/^dprint-plugin-/, "");
  }
  const last = url.split(/[/\\]/).pop() ?? url;
  return last.replace(/@.*$/, "").replace(/\.(wasm|json|exe)$/, "").replace(/-v?\d[\w.-]*$/, "").replace(
    /^dprint-plugin-/,
    "",
  );
}

/** What a `dprint.json` governs: the sections of the plugins poly runs, and the languages of the others. */
export interface DprintOptions {
  /** `lineWidth`, `indentWidth`, `useTabs`, `newLineKind`. */
  global: Table;
  /** Each plugin poly runs that the file lists → its section (`{}` when it has none). */
  plugins: Record<string, Table>;
  /** Each language a plugin poly does not run formats → that plugin's name. */
  foreign: Record<string, string>;
}

/** The reader of dprint's configuration for a run. */
export class DprintReader {
  readonly #found = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** dprint's configuration governing `dir` (searching up to `top`), or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#found, dir, top, async (at) => {
      const names = await this.files.namesIn(at);
      const name = DPRINT_FILES.find((n) => names.has(n));
      return name && await this.#resolve(join(at, name));
    });
  }

  async #resolve(path: string): Promise<NativeEngineConfig> {
    const used: NativeSource[] = [];
    const table = await this.#chain(path, [], used);
    const shown = this.display(path);
    const global = Object.fromEntries(GLOBAL_KEYS.filter((k) => table[k] !== undefined).map((k) => [k, table[k]]));
    const plugins: Record<string, Table> = {};
    const foreign: Record<string, string> = {};
    const list = table.plugins ?? [];
    if (!Array.isArray(list) || list.some((p) => typeof p !== "string")) {
      throw new ConfigError({ file: shown }, `"plugins" must be a list of plugin URLs`);
    }
    /** The plugins poly runs that the file pins at another release than poly's: dprint formats with that one. */
    const otherReleases: Record<string, OtherRelease> = {};
    for (const url of list as string[]) {
      const name = pluginName(url);
      if (OWN_PLUGINS.has(name)) {
        plugins[name] = isTable(table[name]) ? table[name] as Table : {};
        const spec = pluginVersion(url);
        const ours = DPRINT_PLUGIN_RELEASES[name];
        if (spec && spec !== ours) {
          const clause = `whose output poly's ${name} plugin ${ours} does not reproduce`;
          otherReleases[name] = { tool: `dprint's ${name} plugin`, spec, from: shown, clause };
        }
      } else for (const language of FOREIGN_PLUGINS[name] ?? []) foreign[language] ??= name;
    }
    const globs = (key: string): string[] | undefined => {
      const v = table[key];
      if (v === undefined) return undefined;
      if (!Array.isArray(v) || v.some((g) => typeof g !== "string")) {
        throw new ConfigError({ file: shown }, `"${key}" must be a list of globs`);
      }
      return v as string[];
    };
    const root = dirname(path);
    const includes = globs("includes");
    const excludes = [...(globs("excludes") ?? []), "**/node_modules"];
    const options: DprintOptions = { global, plugins, foreign };
    return {
      files: used,
      options: options as unknown as Table,
      root,
      dprint: true,
      ...(includes ? { include: includes.map((pattern) => ({ pattern, base: root })) } : {}),
      exclude: { fmt: excludes.map((pattern) => ({ pattern, base: root })) },
      ...(Object.keys(otherReleases).length > 0 ? { otherReleases } : {}),
      origins: Object.fromEntries(Object.keys(table).map((k) => [k, shown])),
    };
  }

  /** The file at `path` with what it extends beneath it (`used` gets each file read, bases first). */
  async #chain(path: string, seen: string[], used: NativeSource[]): Promise<Table> {
    const shown = this.display(path);
    if (seen.includes(path)) throw new ConfigError({ file: shown }, `"extends" loops back to this file`);
    const file = await this.files.read(path);
    let table: unknown;
    try {
      table = parseJsonc(file.text);
    } catch (e) {
      throw parseError(e, shown);
    }
    if (!isTable(table)) throw new ConfigError({ file: shown }, "a dprint configuration must be a JSON object");
    const bases = table.extends === undefined ? [] : Array.isArray(table.extends) ? table.extends : [table.extends];
    let merged: Table = {};
    for (const base of bases) {
      if (typeof base !== "string") throw new ConfigError({ file: shown }, `"extends" must name files`);
      if (/^[a-z]+:\/\//i.test(base)) {
        throw new ConfigError(
          { file: shown },
          `"extends": "${base}" cannot be honoured: poly reads no configuration over the network (copy it into the repository)`,
        );
      }
      merged = mergeDprint(merged, await this.#chain(resolve(dirname(path), base), [...seen, path], used));
    }
    used.push({ path: file.path, hash: file.hash });
    const { extends: _extends, ...own } = table;
    return mergeDprint(merged, own);
  }
}

/** `over` on `under`: plugin sections (tables) merged key by key, the rest replaced. */
function mergeDprint(under: Table, over: Table): Table {
  const out: Table = { ...under };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isTable(v) && isTable(out[k]) ? { ...out[k] as Table, ...v } : v;
  }
  return out;
}

const matchers = new Map<string, (path: string) => boolean>();

function matches(pattern: string, rel: string): boolean {
  let m = matchers.get(pattern);
  if (!m) {
    const glob = pattern.replace(/^\.\//, "").replace(/\/$/, "");
    m = picomatch(glob, { dot: true }) as (path: string) => boolean;
    matchers.set(pattern, m);
  }
  return m(rel);
}

/**
 * Why dprint's configuration keeps `absPath` from it: matched by `excludes` (the file or a folder above it), or not
 * matched by `includes`. Undefined when dprint would format it.
 */
export function dprintExcluded(native: NativeEngineConfig, absPath: string): string | undefined {
  const rel = relative(native.root, absPath).split(sep).join("/");
  if (rel.startsWith("..")) return undefined;
  const where = relative(dirname(absPath), native.files.at(-1)?.path ?? native.root);
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const path = parts.slice(0, i).join("/");
    const hit = native.exclude?.fmt?.find((e) => matches(e.pattern, path));
    if (hit) {
      return hit.pattern === "**/node_modules"
        ? "excluded by dprint: in node_modules"
        : `excluded by dprint: "${hit.pattern}" in excludes of "${where}"`;
    }
  }
  const included = (pattern: string) => parts.some((_, i) => matches(pattern, parts.slice(0, i + 1).join("/")));
  if (native.include && !native.include.some((e) => included(e.pattern))) {
    return `not in dprint's includes ("${where}")`;
  }
  return undefined;
}
