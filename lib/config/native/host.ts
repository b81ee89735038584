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
 *
 * @module
 */
import { dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";

/** shellcheck's rc file names, in the order it looks for them in one directory. */
export const SHELLCHECK_FILES = [".shellcheckrc", "shellcheckrc"] as const;
/** clang-format's style file names, in the order it looks for them in one directory. */
export const CLANG_FORMAT_FILES = [".clang-format", "_clang-format"] as const;
/** rustfmt's config file names, in the order it looks for them in one directory. */
export const RUSTFMT_FILES = [".rustfmt.toml", "rustfmt.toml"] as const;
/** rustup's toolchain file names, in the order it takes them in one directory (the legacy name first). */
export const TOOLCHAIN_FILES = ["rust-toolchain", "rust-toolchain.toml"] as const;

type Table = Record<string, unknown>;

function isTable(v: unknown): v is Table {
  return v !== null && typeof v === "object" && !Array.isArray(v);
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
    for (const line of f.text.split(/\r?\n/)) {
      const key = /^\s*([a-z-]+)\s*=/.exec(line)?.[1];
      if (key) origins[key] = this.display(path);
    }
    return { files: [source(f)], options: {}, root: dirname(path), origins };
  }

  /** clang-format's nearest style file: `options.style` is its YAML, each document checked. */
  async clangFormat(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
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
      try {
        found = parseToml(text) as Table;
      } catch (e) {
        const m = (e instanceof Error ? e.message : String(e)).split("\n")[0];
        throw new ConfigError({ file: this.display(path) }, `cannot parse TOML: ${m}`);
      }
      this.#tomls.set(path, found);
    }
    return found;
  }
}
