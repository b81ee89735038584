/**
 * Native configuration of the host and single-file tools: each found as the tool
 * itself finds it, from the file's directory upward (bounded by the repository
 * root, as every native reader is):
 *
 * - shellcheck: the nearest `.shellcheckrc` (then `shellcheckrc`) — the first one
 *   shellcheck would take. The user-level `~/.shellcheckrc` is not read (results
 *   must not depend on files outside the repository and the cache key).
 * - clang-format: the nearest `.clang-format` (then `_clang-format`), its YAML
 *   passed whole as the style. `BasedOnStyle: InheritParentConfig` cannot be
 *   honoured (an error naming the file and key).
 * - rustfmt: the nearest `.rustfmt.toml` (then `rustfmt.toml`), as rustfmt looks
 *   for them; with the nearest `Cargo.toml` that has a `[package]` giving the
 *   edition the file leaves unset, as `cargo fmt` does (`edition.workspace = true`
 *   from the workspace's `[workspace.package]`; none: 2015, cargo's default);
 *   and the nearest `rust-toolchain` (then `rust-toolchain.toml`), from whose
 *   folder rustfmt then runs, so rustup picks the toolchain `cargo fmt` would
 *   (its bytes are in the cache key with the others').
 * - StyLua: the nearest `stylua.toml` (then `.stylua.toml`), as StyLua 2 looks for
 *   them from the file's directory up to where it runs; its keys mapped onto the
 *   options of poly's StyLua build ({@link styluaOptions}). Without one StyLua reads
 *   `.editorconfig` its own way (lib/config/native/editorconfig.ts).
 *
 * @module
 */
import { CLANG_FORMAT_IGNORE, ignorePatterns } from "./clang_format_ignore.ts";
import { dirname, join, relative, sep } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { parseTomlText } from "./_reading.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";
import { isTable, type Table } from "../table.ts";

/** shellcheck's rc file names, in the order it looks for them in one directory. */
export const SHELLCHECK_FILES = [".shellcheckrc", "shellcheckrc"] as const;
/** clang-format's style file names, in the order it looks for them in one directory. */
export const CLANG_FORMAT_FILES = [".clang-format", "_clang-format"] as const;

/** The clang-format poly runs (deno.json's pin of `@wasm-fmt/clang-format`: LLVM's; lib/engines/clang_format/mod.ts). */
export const CLANG_FORMAT_RELEASE = "23.1.0";
/** rustfmt's config file names, in the order it looks for them in one directory. */
export const RUSTFMT_FILES = [".rustfmt.toml", "rustfmt.toml"] as const;
/** rustup's toolchain file names, in the order it takes them in one directory (the legacy name first). */
export const TOOLCHAIN_FILES = ["rust-toolchain", "rust-toolchain.toml"] as const;

/** StyLua's config file names, in the order it looks for them in one directory. */
export const STYLUA_FILES = ["stylua.toml", ".stylua.toml"] as const;
/** StyLua's ignore file: gitignore patterns, one in any folder of the walk. */
export const STYLUA_IGNORE = ".styluaignore";

/** One `.styluaignore`: the file, its patterns rooted at the run's top folder. */
interface StyluaIgnore {
  file: NativeSource;
  patterns: string[];
}

/** StyLua's enumerated keys and their values (its `Config`, which refuses any other key or value). */
export const STYLUA_CHOICES: Record<string, readonly string[]> = {
  indent_type: ["Tabs", "Spaces"],
  line_endings: ["Unix", "Windows"],
  syntax: ["All", "Lua51", "Lua52", "Lua53", "Lua54", "Luau", "LuaJIT", "CfxLua"],
  quote_style: ["AutoPreferDouble", "AutoPreferSingle", "ForceDouble", "ForceSingle"],
  call_parentheses: ["Always", "NoSingleString", "NoSingleTable", "None", "Input"],
  collapse_simple_statement: ["Never", "FunctionOnly", "ConditionalOnly", "Always"],
  block_newline_gaps: ["Never", "Preserve"],
  space_after_function_names: ["Never", "Definitions", "Calls", "Always"],
};

/**
 * The Lua dialects StyLua's `syntax` names that poly's build parses: it parses Lua 5.1 to 5.4 at once, as "All" does,
 * and so LuaJIT's (Lua 5.1 with `goto` and labels) but for its `1LL` / `1ULL` / `1i` number literals, which are then
 * the file's syntax error; not Luau's nor CfxLua's.
 */
const STYLUA_SYNTAX = new Set(["All", "Lua51", "Lua52", "Lua53", "Lua54", "LuaJIT"]);

/**
 * A `stylua.toml`'s keys as the options of poly's StyLua build (`@wasm-fmt/lua_fmt`): `column_width` → `line_width`,
 * `indent_type` (`Tabs`/`Spaces`) → `indent_style`, `line_endings` (`Unix`/`Windows`) → `line_ending`,
 * `sort_requires.enabled` → `sort_requires`, `no_call_parentheses = true` → `call_parentheses = "None"`; the others as
 * written. A key or value StyLua refuses, or a `syntax` the build cannot parse, throws (the message without the file).
 */
export function styluaOptions(table: Table): Table {
  const out: Table = {};
  const bad = (key: string, why: string) => new Error(`StyLua key "${key}" ${why}`);
  const choice = (key: string, values: readonly string[]) => {
    const v = table[key];
    if (typeof v !== "string" || !values.includes(v)) throw bad(key, `must be one of ${values.join(", ")}`);
    return v;
  };
  const width = (key: string) => {
    const v = table[key];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw bad(key, "must be a whole number");
    return v;
  };
  for (const key of Object.keys(table)) {
    switch (key) {
      case "column_width":
        out.line_width = Math.min(width(key), 65535); // the build takes a 16-bit width
        break;
      case "indent_width":
        out.indent_width = Math.min(width(key), 255); // an 8-bit width in the build
        break;
      case "indent_type":
        out.indent_style = choice(key, STYLUA_CHOICES.indent_type) === "Tabs" ? "tab" : "space";
        break;
      case "line_endings":
        out.line_ending = choice(key, STYLUA_CHOICES.line_endings) === "Unix" ? "lf" : "crlf";
        break;
      case "syntax": {
        const v = choice(key, STYLUA_CHOICES.syntax);
        if (!STYLUA_SYNTAX.has(v)) {
          throw bad(key, `= "${v}" cannot be honoured: poly's StyLua build parses Lua 5.1 to 5.4 and LuaJIT only`);
        }
        // poly's build parses every dialect it has at once, as "All" does; LuaJIT is kept for the engine's message on a
        // literal the build cannot parse (the build ignores the key).
        if (v === "LuaJIT") out.syntax = v;
        break;
      }
      case "no_call_parentheses":
        if (typeof table[key] !== "boolean") throw bad(key, "must be true or false");
        if (table[key] && table.call_parentheses === undefined) out.call_parentheses = "None";
        break;
      case "sort_requires": {
        const v = table[key];
        if (
          !isTable(v) || Object.keys(v).some((k) => k !== "enabled") ||
          !["boolean", "undefined"].includes(typeof v.enabled)
        ) {
          throw bad(key, "must be a table with enabled = true or false");
        }
        out.sort_requires = v.enabled === true;
        break;
      }
      default:
        if (!(key in STYLUA_CHOICES)) throw bad(key, "is not one of StyLua's (StyLua refuses the file too)");
        out[key] = choice(key, STYLUA_CHOICES[key]);
    }
  }
  return out;
}

/** The first of `names` found in `dir` or a directory above it, up to `top`. */
export async function nearestFile(
  files: NativeFiles,
  dir: string,
  top: string,
  names: readonly string[],
  accept: (path: string) => Promise<boolean> = () => Promise.resolve(true),
): Promise<string | undefined> {
  for (let d = dir;; d = dirname(d)) {
    const present = await files.namesIn(d);
    for (const name of names) if (present.has(name) && await accept(join(d, name))) return join(d, name);
    if (d === top || dirname(d) === d) return undefined;
  }
}

function source(f: NativeSource): NativeSource {
  return { path: f.path, hash: f.hash };
}

/** Reads the host tools' native files for one directory. */
export class HostReader {
  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** shellcheck's nearest rc file: passed to shellcheck as it is. */
  async shellcheck(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const path = await nearestFile(this.files, dir, top, SHELLCHECK_FILES);
    if (!path) return undefined;
    const f = await this.files.read(path);
    const origins: Record<string, string> = {};
    // Its `key=value` lines, the last of a key winning but for `source-path`, each of which adds a folder: the
    // shellcheck engine reads whether `source` reaches files outside shellcheck's inputs, and where it looks for them.
    const options: Record<string, unknown> = {};
    const sourcePaths: string[] = [];
    for (const line of f.text.split(/\r?\n/)) {
      const m = /^\s*([a-z-]+)\s*=\s*(.*?)\s*$/.exec(line);
      if (!m) continue;
      origins[m[1]] = this.display(path);
      if (m[1] === "source-path") sourcePaths.push(m[2]);
      else options[m[1]] = m[2];
    }
    if (sourcePaths.length > 0) options["source-path"] = sourcePaths;
    return { files: [source(f)], options, root: dirname(path), origins };
  }

  /**
   * clang-format's nearest style file (`options.styles`: its YAML documents, each checked) and its nearest
   * `.clang-format-ignore` (`clangFormatIgnore`; alone, `ignoreOnly`).
   */
  async clangFormat(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const [style, ignorePath] = await Promise.all([
      this.#clangFormatStyle(dir, top),
      nearestFile(this.files, dir, top, [CLANG_FORMAT_IGNORE]),
    ]);
    if (!ignorePath) return style;
    const ignore = await this.files.read(ignorePath);
    const clangFormatIgnore = { file: ignore.path, patterns: ignorePatterns(ignore.text) };
    if (!style) return { files: [source(ignore)], options: {}, root: top, ignoreOnly: true, clangFormatIgnore };
    return { ...style, files: [...style.files, source(ignore)], clangFormatIgnore };
  }

  async #clangFormatStyle(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const path = await nearestFile(this.files, dir, top, CLANG_FORMAT_FILES);
    if (!path) return undefined;
    const f = await this.files.read(path);
    const shown = this.display(path);
    // npm `yaml` loads on first use: its evaluation costs ~50 ms, and most runs read no YAML configuration.
    const { parseAllDocuments } = await import("yaml");
    const docs = parseAllDocuments(f.text);
    const styles: Table[] = [];
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length > 0) {
        throw new ConfigError({ file: shown }, `cannot parse YAML: ${doc.errors[0].message.split("\n")[0]}`);
      }
      const value = doc.toJS();
      if (value === null || value === undefined) continue;
      if (!isTable(value)) throw new ConfigError({ file: shown }, "a .clang-format document must be a mapping");
      if (value.BasedOnStyle === "InheritParentConfig") {
        throw new ConfigError(
          { file: shown },
          'clang-format key "BasedOnStyle: InheritParentConfig" cannot be honoured: name a base style (LLVM, Google, ...) or set [tools.clang-format] native_config = false',
        );
      }
      styles.push(value);
    }
    const origins = Object.fromEntries(styles.flatMap((doc) => Object.keys(doc)).map((k) => [k, shown]));
    return { files: [source(f)], options: { styles }, root: dirname(path), origins };
  }

  /** The `.styluaignore` chain of each folder: a folder without one of its own shares its parent's array. */
  readonly #styluaChains = new Map<string, Promise<StyluaIgnore[]>>();
  /** StyLua's configuration by ignore chain and config file: one object for every folder they govern alike. */
  readonly #styluaConfigs = new WeakMap<StyluaIgnore[], Map<string, Promise<NativeEngineConfig | undefined>>>();

  /**
   * StyLua's nearest config file (`options` are the StyLua build's options it sets) and the `.styluaignore` files of
   * `dir` and the folders above it (`formatIgnore`, rooted at `top`). Only ignore files: `ignoreOnly`.
   */
  async stylua(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const path = await nearestFile(this.files, dir, top, STYLUA_FILES);
    const ignores = await this.#styluaIgnores(dir, top);
    let byPath = this.#styluaConfigs.get(ignores);
    if (!byPath) this.#styluaConfigs.set(ignores, byPath = new Map());
    let found = byPath.get(path ?? "");
    if (!found) byPath.set(path ?? "", found = this.#stylua(path, ignores, top));
    return await found;
  }

  async #stylua(
    path: string | undefined,
    ignores: StyluaIgnore[],
    top: string,
  ): Promise<NativeEngineConfig | undefined> {
    if (!path && ignores.length === 0) return undefined;
    const ignoring = ignores.length > 0
      ? { formatIgnore: ignores.map(({ file, patterns }) => ({ file: file.path, patterns })) }
      : {};
    const ignoreFiles = ignores.map(({ file }) => source(file));
    if (!path) return { files: ignoreFiles, options: {}, root: top, ...ignoring, ignoreOnly: true };
    const f = await this.files.read(path);
    const shown = this.display(path);
    const table = this.toml(f.text, path);
    let options: Table;
    try {
      options = styluaOptions(table);
    } catch (e) {
      throw new ConfigError({ file: shown }, (e as Error).message);
    }
    const origins = Object.fromEntries(Object.keys(table).map((k) => [k, shown]));
    return { files: [...ignoreFiles, source(f)], options, root: top, origins, ...ignoring };
  }

  /**
   * The `.styluaignore` files StyLua's walk applies to `dir` (each folder's, from `top` down), their gitignore patterns
   * rewritten to be rooted at `top`: `p` in folder `f` becomes `f/**` then `/p` (no slash inside: any depth below `f`) or
   * `f/p` (anchored), a `!` kept in front.
   */
  #styluaIgnores(dir: string, top: string): Promise<StyluaIgnore[]> {
    let found = this.#styluaChains.get(dir);
    if (!found) {
      found = (async () => {
        const above = dir === top || dirname(dir) === dir ? [] : await this.#styluaIgnores(dirname(dir), top);
        if (!(await this.files.namesIn(dir)).has(STYLUA_IGNORE)) return above;
        const f = await this.files.read(join(dir, STYLUA_IGNORE));
        const rel = relative(top, dir).split(sep).join("/");
        const patterns = f.text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#")).map((line) => {
          if (!rel) return line;
          const negated = line.startsWith("!");
          const p = negated ? line.slice(1) : line;
          const anchored = p.replace(/\/$/, "").includes("/");
          return `${negated ? "!" : ""}${rel}/${anchored ? p.replace(/^\//, "") : `**/${p}`}`;
        });
        return [...above, { file: f, patterns }];
      })();
      this.#styluaChains.set(dir, found);
    }
    return found;
  }

  /** rustfmt's nearest config file and the edition `cargo fmt` would pass. */
  async rustfmt(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    const path = await nearestFile(this.files, dir, top, RUSTFMT_FILES);
    const used: NativeSource[] = [];
    let options: Table = {};
    const origins: Record<string, string> = {};
    if (path) {
      const f = await this.files.read(path);
      options = { ...this.toml(f.text, path) };
      used.push(source(f));
      for (const key of Object.keys(options)) origins[key] = this.display(path);
    }
    if (options.edition === undefined) {
      const cargo = await this.cargoEdition(dir, top);
      if (cargo) {
        used.unshift(...cargo.files);
        options = { ...options, edition: cargo.edition };
        origins.edition = this.display(cargo.files[0].path);
      }
    }
    const toolchain = await nearestFile(this.files, dir, top, TOOLCHAIN_FILES);
    if (toolchain) used.push(source(await this.files.read(toolchain)));
    if (used.length === 0) return undefined;
    return { files: used, options, root: path ? dirname(path) : dirname(used[0].path), origins };
  }

  /** The edition of the nearest Cargo.toml with a `[package]`, as `cargo fmt` passes it. */
  async cargoEdition(dir: string, top: string): Promise<{ edition: string; files: NativeSource[] } | undefined> {
    // A Cargo.toml that does not parse (a cargo-generate template, say) is passed over, not a run-level error:
    // it gives no edition, and rustfmt itself never reads it.
    const isPackage = async (p: string) => {
      try {
        return isTable(this.toml((await this.files.read(p)).text, p).package);
      } catch {
        return false;
      }
    };
    const path = await nearestFile(this.files, dir, top, ["Cargo.toml"], isPackage);
    if (!path) return undefined;
    const f = await this.files.read(path);
    const pkg = this.toml(f.text, path).package as Table;
    if (typeof pkg.edition === "string") return { edition: pkg.edition, files: [source(f)] };
    if (isTable(pkg.edition) && pkg.edition.workspace === true) {
      const hasEdition = async (p: string) => {
        try {
          const ws = this.toml((await this.files.read(p)).text, p).workspace as Table | undefined;
          return isTable(ws?.package) && typeof ws.package.edition === "string";
        } catch {
          return false;
        }
      };
      const root = await nearestFile(this.files, dirname(path), top, ["Cargo.toml"], hasEdition);
      // The workspace root is above the directories poly searches (a path outside the repository): unknown.
      if (!root) return undefined;
      const wf = await this.files.read(root);
      const ws = this.toml(wf.text, root).workspace as { package: { edition: string } };
      return { edition: ws.package.edition, files: [source(wf), source(f)] };
    }
    return { edition: "2015", files: [source(f)] }; // cargo's default edition
  }

  #tomls = new Map<string, Table>();

  private toml(text: string, path: string): Table {
    let found = this.#tomls.get(path);
    if (!found) {
      found = parseTomlText(text, this.display(path));
      this.#tomls.set(path, found);
    }
    return found;
  }
}
