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
 * @module
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import all from "markdownlint/style/all" with { type: "json" };
import cirosantilli from "markdownlint/style/cirosantilli" with { type: "json" };
import prettier from "markdownlint/style/prettier" with { type: "json" };
import relaxed from "markdownlint/style/relaxed" with { type: "json" };
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { parseError, readExtended } from "./_reading.ts";
import { parseJsonc } from "./_jsonc.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";
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

/** Reads markdownlint's native files. */
export class MarkdownlintReader {
  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /**
   * The configuration governing `dir`, or undefined when no directory up to
   * `top` has one. As markdownlint-cli2 merges by inheritance
   * (`createDirInfos`), from the nearest directory holding any of these files
   * (cli2 lints a file under it): that directory's own `.markdownlint.*` wins; else the
   * nearest `.markdownlint.*` above, unless a `.markdownlint-cli2.*` `config` at
   * its level or below came first; else the `config` keys of every
   * `.markdownlint-cli2.*` up the tree, merged rule by rule, the nearest winning.
   */
  async forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
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
    let doc: unknown;
    try {
      // npm `yaml` loads on first use: its evaluation costs ~50 ms, and most runs read no YAML configuration.
      const name = basename(path);
      doc = /\.ya?ml$/.test(path)
        ? (await import("yaml")).parse(f.text)
        : /\.[cm]js$/.test(path)
        ? (await import("./_jsconfig.ts")).staticExport(f.text, name, shown, {
          instead: `write it as ${
            name.startsWith(".markdownlint-cli2") ? ".markdownlint-cli2.jsonc" : ".markdownlint.json"
          }, or set [tools.markdownlint] native_config = false`,
        })
        : parseJsonc(f.text);
    } catch (e) {
      throw parseError(e, shown);
    }
    doc ??= {};
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
