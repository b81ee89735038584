/**
 * dprint — TOML, Markdown and Dockerfile formatting, and JavaScript, TypeScript and JSON where a `deno.json` governs
 * them, in-process (dprint's WebAssembly plugins `@dprint/toml`, `@dprint/markdown`, `@dprint/dockerfile`,
 * `@dprint/typescript`, `@dprint/json` run by `@dprint/formatter`).
 *
 * - Tier: in-process. Languages: TOML, Markdown, Dockerfile (format only); JavaScript, TypeScript and JSON (and
 *   Markdown's settings) under a `deno.json` (`deno fmt`'s formatter: the plugins' `deno` preset and the file's `fmt`
 *   options, {@link denoConfig}; lib/config/native/deno.ts reads it, lib/run/plan.ts says where it governs).
 * - `[defaults] line_length` → `lineWidth`, `indent_width` → `indentWidth`,
 *   `line_ending` → `newLineKind`; `final_newline` is applied to the output.
 * - `[fmt.<toml|markdown|dockerfile>.dprint]` keys are the plugin's own settings,
 *   passed as written (camelCase, e.g. `textWrap = "always"` for Markdown,
 *   `indentTables = true` for TOML); an unknown one is an errored record naming it.
 *   One extra key for Markdown: `code_blocks` (default true) — fenced code blocks
 *   of languages poly formats (go, sh, toml, yaml, json, js, ts, css, python, sql,
 *   ...) are formatted by that language's engine; others, and blocks with syntax
 *   errors, are left alone.
 * - Markdown under a repository's prettier or oxfmt options takes those instead of
 *   `[defaults]`, as prettier formats Markdown ({@link dprintConfig}); its code blocks
 *   take the Markdown file's options.
 * - A syntax error (TOML) is an errored record with the line and column.
 *
 * Example: `a=1\n[b]\nc   =  [1,2]` → `a = 1\n[b]\nc = [1, 2]`.
 *
 * @module
 */
import type { Formatter } from "@dprint/formatter";
import { styleDefaults, styleLayout, styleOptionsFor } from "../../config/native/prettier.ts";
import { DPRINT_PLUGIN_RELEASES } from "../../config/native/dprint.ts";
import { finishText } from "../layout.ts";
import { positioned } from "../fail.ts";
import { fenceKey, type FenceRequest, formatFences } from "./_fences.ts";
import { siblingUrls } from "../module.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import {
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type Settled,
  type SourceFile,
} from "../types.ts";
import { readBytesSync } from "../../fs/read_bytes.ts";

/** `[fmt.markdown.dprint]` keys that are poly's, not the plugin's: its code blocks' formatting. */
const POLY_KEYS: ReadonlySet<string> = new Set(["code_blocks", "code_block_tabs"]);

const PLUGINS = {
  toml: { pkg: "@dprint/toml", version: DPRINT_PLUGIN_RELEASES.toml },
  markdown: { pkg: "@dprint/markdown", version: DPRINT_PLUGIN_RELEASES.markdown },
  dockerfile: { pkg: "@dprint/dockerfile", version: DPRINT_PLUGIN_RELEASES.dockerfile },
  typescript: { pkg: "@dprint/typescript", version: DPRINT_PLUGIN_RELEASES.typescript },
  json: { pkg: "@dprint/json", version: DPRINT_PLUGIN_RELEASES.json },
} as const;
type PluginLanguage = keyof typeof PLUGINS;

/** The plugin that formats a file of `language` (JavaScript is the TypeScript plugin's). */
export function pluginOf(language: string): PluginLanguage | undefined {
  if (language === "javascript") return "typescript";
  return language in PLUGINS ? language as PluginLanguage : undefined;
}

function pluginUrl(language: PluginLanguage): string {
  const entry = language === "toml"
    ? import.meta.resolve("@dprint/toml")
    : language === "markdown"
    ? import.meta.resolve("@dprint/markdown")
    : language === "typescript"
    ? import.meta.resolve("@dprint/typescript")
    : language === "json"
    ? import.meta.resolve("@dprint/json")
    : import.meta.resolve("@dprint/dockerfile");
  return new URL("plugin.wasm", entry).href;
}

/**
 * Path of a plugin's wasm, found through the package's own `getPath()`: each
 * package is a literal import, which `deno compile` embeds (with its
 * `plugin.wasm`) in a compiled binary's file system.
 */
async function pluginPath(language: PluginLanguage): Promise<string> {
  const mod: { getPath(): string } = language === "toml"
    ? await import("@dprint/toml")
    : language === "markdown"
    ? await import("@dprint/markdown")
    : language === "typescript"
    ? await import("@dprint/typescript")
    : language === "json"
    ? await import("@dprint/json")
    : await import("@dprint/dockerfile");
  return (mod.getPath ?? (mod as unknown as { default: { getPath(): string } }).default.getPath)();
}

type Table = Record<string, unknown>;

/**
 * dprint's global and plugin configuration for one file: poly's `[defaults]`; for Markdown, the repository's
 * prettier/oxfmt options for the file where they govern (`printWidth`, `proseWrap` → `textWrap`, `endOfLine`,
 * prettier's ignore comments, its HTML left as written); a `deno.json`'s `fmt` where it governs ({@link denoConfig});
 * the tool table's keys on top.
 */
export function dprintConfig(
  settings: EngineSettings,
  path = "",
  language = "markdown",
): { global: Table; plugin: Table } {
  const { global, plugin } = settings.native?.deno
    ? denoConfig(settings, language)
    : settings.native?.dprint
    ? dprintJsonConfig(settings, language)
    : ownConfig(settings, path);
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k) && !POLY_KEYS.has(k)) plugin[k] = v;
  return { global, plugin };
}

/**
 * dprint's configuration under the repository's `dprint.json` (lib/config/native/dprint.ts): its global keys, and the
 * section of the plugin that formats `language`, as written (the plugin refuses a key it does not know).
 */
function dprintJsonConfig(settings: EngineSettings, language: string): { global: Table; plugin: Table } {
  const native = settings.native!;
  if (native.unhonoured) throw new EngineError(native.unhonoured);
  const o = native.options as { global: Table; plugins: Record<string, Table> };
  return { global: { ...o.global }, plugin: { ...(o.plugins[pluginOf(language) ?? ""] ?? {}) } };
}

/** dprint's configuration from poly's `[defaults]`, or from the prettier/oxfmt options governing Markdown. */
function ownConfig(settings: EngineSettings, path: string): { global: Table; plugin: Table } {
  const d = settings.defaults;
  let global: Table = {
    lineWidth: d.line_length,
    ...(d.indent_width ? { indentWidth: d.indent_width } : {}),
    newLineKind: d.line_ending,
  };
  let plugin: Table = {};
  if (settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
  if (settings.native) {
    const options = styleOptionsFor(settings.native, path);
    const layout = styleLayout(options);
    global = {
      lineWidth: layout.printWidth,
      indentWidth: layout.tabWidth,
      useTabs: layout.useTabs,
      newLineKind: layout.lineEnding,
    };
    const wrap = options.proseWrap === "always" ? "always" : options.proseWrap === "never" ? "never" : "maintain";
    plugin = {
      textWrap: wrap,
      // prettier leaves a Markdown file's HTML as written.
      "html.skipFormat": true,
      ignoreDirective: "prettier-ignore",
      ignoreStartDirective: "prettier-ignore-start",
      ignoreEndDirective: "prettier-ignore-end",
    };
  }
  return { global, plugin };
}

/** `deno.json`'s `fmt` keys that `deno fmt` passes to dprint's TypeScript plugin as they are. */
const DENO_AS_IS = [
  "useTabs",
  "lineWidth",
  "indentWidth",
  "quoteProps",
  "newLineKind",
  "useBraces",
  "bracePosition",
  "singleBodyPosition",
  "nextControlFlowPosition",
  "trailingCommas",
  "operatorPosition",
  "jsx.bracketPosition",
  "jsx.forceNewLinesSurroundingContent",
  "jsx.multiLineParens",
  "typeLiteral.separatorKind",
  "spaceAround",
  "spaceSurroundingProperties",
];
const DENO_KEYS = new Set([...DENO_AS_IS, "singleQuote", "semiColons", "proseWrap"]);

/**
 * dprint's configuration for one plugin under a `deno.json`'s `fmt`, as `deno fmt` builds it: the plugin's `deno`
 * preset, then the options — `singleQuote` → `quoteStyle: "preferSingle"`, `semiColons` → `"prefer"` / `"asi"`,
 * `spaceSurroundingProperties` also for named imports and exports,
 * the rest by the same names; JSON and Markdown take the layout ones, Markdown `proseWrap: "never"` as `textWrap`
 * and otherwise `"maintain"` (lib/config/native/deno.ts says why). Every setting goes to the plugin: its preset would
 * override the global ones.
 */
function denoConfig(settings: EngineSettings, language: string): { global: Table; plugin: Table } {
  const native = settings.native!;
  if (native.unhonoured) throw new EngineError(native.unhonoured);
  const o = native.options;
  const unknown = Object.keys(o).filter((k) => !DENO_KEYS.has(k));
  if (unknown.length > 0) {
    const file = native.files.at(-1)?.path ?? "deno.json";
    throw new EngineError(
      `unknown deno fmt option ${unknown.map((k) => `"${k}"`).join(", ")} in ${file.slice(file.lastIndexOf("/") + 1)}`,
    );
  }
  const layout = ["useTabs", "lineWidth", "indentWidth", "newLineKind"];
  const plugin: Table = { deno: true };
  const script = pluginOf(language) === "typescript";
  for (const k of script ? DENO_AS_IS : layout) if (o[k] !== undefined) plugin[k] = o[k];
  if (script) {
    if (o.singleQuote === true) plugin.quoteStyle = "preferSingle";
    if (o.semiColons !== undefined) plugin.semiColons = o.semiColons ? "prefer" : "asi";
    // Deno's `spaceSurroundingProperties` also spaces the braces of named imports and exports.
    if (o.spaceSurroundingProperties !== undefined) {
      plugin["importDeclaration.spaceSurroundingNamedImports"] = o.spaceSurroundingProperties;
      plugin["exportDeclaration.spaceSurroundingNamedExports"] = o.spaceSurroundingProperties;
    }
  }
  if (language === "markdown") plugin.textWrap = o.proseWrap === "never" ? "never" : "maintain";
  return { global: {}, plugin };
}

class Dprint implements EngineInstance {
  #formatters = new Map<PluginLanguage, Formatter>();
  #configured = new Map<PluginLanguage, string>();
  constructor(private readonly create: (bytes: Uint8Array<ArrayBuffer>) => Formatter) {}

  async #formatter(language: PluginLanguage, settings: EngineSettings, file: SourceFile): Promise<Formatter> {
    let f = this.#formatters.get(language);
    if (!f) {
      f = this.create(readBytesSync(await pluginPath(language)));
      this.#formatters.set(language, f);
    }
    const { global, plugin } = dprintConfig(settings, file.path, file.language);
    const key = JSON.stringify([global, plugin]);
    if (this.#configured.get(language) !== key) {
      f.setConfig(global, plugin);
      const problems = f.getConfigDiagnostics();
      if (problems.length > 0) {
        this.#configured.delete(language);
        const list = problems.map((p) => `"${p.propertyName}": ${p.message}`).join("; ");
        throw new EngineError(`invalid setting in [fmt.${language}.dprint]: ${list}`);
      }
      this.#configured.set(language, key);
    }
    return f;
  }

  async format(file: SourceFile, settings: EngineSettings): Promise<string> {
    const [result] = await this.formatMany([file], settings);
    if (result instanceof Error) throw result;
    return result;
  }

  /**
   * Formats many files with one settings object (what a run hands it: a batch engine). A Markdown file's code blocks
   * are collected by a first pass whose host leaves each as written; then every block of the batch goes to its
   * formatter at once ({@link formatFences}: one native process for all of them, where the formatter has one), and the
   * files with a block formatted are formatted again with them.
   */
  async formatMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]> {
    const passes: Settled<{ out: string; blocks: FenceRequest[] }>[] = [];
    for (const file of files) {
      try {
        passes.push(await this.#pass(file, settings));
      } catch (e) {
        passes.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    const withBlocks = files.flatMap((markdown, i) => {
      const pass = passes[i];
      return pass instanceof Error || pass.blocks.length === 0 ? [] : [{ markdown, requests: pass.blocks, i }];
    });
    const formatted = await formatFences(withBlocks, settings);
    const blocks = new Map(withBlocks.map(({ i }, k) => [i, formatted[k]]));
    const out: Settled<string>[] = [];
    for (const [i, file] of files.entries()) {
      const pass = passes[i];
      try {
        if (pass instanceof Error) throw pass;
        const done = blocks.get(i);
        out.push(this.#finish(file, settings, done?.size ? (await this.#pass(file, settings, done)).out : pass.out));
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  /**
   * One pass of dprint over `file`: its output, and the code blocks its host was asked to format — answered from
   * `done` (by {@link fenceKey}), each block not in it left as written.
   */
  async #pass(
    file: SourceFile,
    settings: EngineSettings,
    done = new Map<string, string>(),
  ): Promise<{ out: string; blocks: FenceRequest[] }> {
    const language = pluginOf(file.language);
    if (!language) throw new EngineError(`dprint does not format ${file.language}`);
    const embedded = language === "typescript" && settings.native?.deno ? embeddedTemplate(file.text) : undefined;
    if (embedded) {
      throw new EngineRefusal(
        `holds a template tagged \`${embedded}\`, whose contents deno fmt formats as ${
          embedded === "css" || embedded.startsWith("styled") ? "CSS" : "HTML"
        } through dprint's host, which the WebAssembly plugin poly runs cannot call: left as it is`,
      );
    }
    const f = await this.#formatter(language, settings, file);
    const blocks: FenceRequest[] = [];
    try {
      if (language === "markdown" && settings.tool.code_blocks !== false) {
        const tabless = settings.tool.code_block_tabs === false;
        f.setHostFormatter((r) => {
          const block = {
            filePath: r.filePath,
            fileText: r.fileText,
            lineWidth: r.overrideConfig?.lineWidth as number | undefined,
          };
          blocks.push(block);
          const formatted = done.get(fenceKey(block));
          // Under `code_block_tabs = false`, a block its formatter indents with tabs (shfmt, gofmt) stays as written.
          if (formatted === undefined || tabless && formatted.includes("\t") && !r.fileText.includes("\t")) {
            return r.fileText;
          }
          return formatted;
        });
      } else f.setHostFormatter(undefined);
      return { out: f.formatText({ filePath: file.path, fileText: file.text }), blocks };
    } catch (e) {
      // The TypeScript plugin ends its message with the place (`at file:///x.ts:2:9`), the others start with it.
      throw positioned("dprint", e, language === "typescript" ? / at \S+:(\d+):(\d+)$/m : /Line (\d+), column (\d+):/);
    } finally {
      f.setHostFormatter(undefined);
    }
  }

  /** dprint's output as the file is written: under `deno.json` as `deno fmt` writes it, else by `[defaults]`. */
  #finish(file: SourceFile, settings: EngineSettings, out: string): string {
    if (pluginOf(file.language) === "markdown") out = nextLineDirectives(file.text, out);
    // Under `deno.json`, dprint's own line endings and final newline, as `deno fmt` writes them.
    if (settings.native?.deno) return out;
    return finishText(
      out,
      file.text,
      settings.native ? styleDefaults(settings.defaults, settings.native, file.path) : settings.defaults,
    );
  }
}

/** A comment that acts on the line after it: `<!-- markdownlint-disable-next-line MD038 -->`, cspell's, textlint's. */
const NEXT_LINE_DIRECTIVE = /^[ \t]*<!--[^\n]*\bdisable-next-line\b[^\n]*-->[ \t]*$/;

/**
 * `out` with each next-line directive kept on the line before what it acts on where `text` had it so: dprint writes
 * a blank line after an HTML block, which leaves the directive acting on the blank line (DavidAnson/markdownlint's
 * `<!-- markdownlint-disable-next-line no-space-in-code -->`: the finding it suppressed came back). The directives
 * are paired in order by their text.
 */
export function nextLineDirectives(text: string, out: string): string {
  if (!text.includes("disable-next-line")) return out;
  const before = text.split(/\r?\n/);
  const attached: [string, boolean][] = [];
  for (const [i, line] of before.entries()) {
    if (NEXT_LINE_DIRECTIVE.test(line)) attached.push([line.trim(), (before[i + 1] ?? "").trim() !== ""]);
  }
  const eol = out.includes("\r\n") ? "\r\n" : "\n";
  const lines = out.split(/\r?\n/);
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!NEXT_LINE_DIRECTIVE.test(lines[i])) continue;
    const k = attached.findIndex(([directive], j) => j >= next && directive === lines[i].trim());
    if (k < 0) continue;
    next = k + 1;
    if (attached[k][1] && lines[i + 1] === "" && (lines[i + 2] ?? "").trim() !== "") lines.splice(i + 1, 1);
  }
  return lines.join(eol);
}

/**
 * A tagged template `deno fmt` hands to a formatter of its own: dprint's TypeScript plugin gives a template tagged
 * `html`, `svg` or `css`, or `styled.x` / `styled(X)` (CSS), to its host, which in Deno formats the contents with
 * markup_fmt or malva and the `${}` expressions where they land. The WebAssembly build poly runs asks no host for them
 * (checked: its host formatter is never called), and formats the file differently (denoland/std's
 * `http/file_server.ts`, which `deno fmt --check` accepts, came out with its `${}` expressions re-laid). The first such
 * tag in the text; a match inside a comment or string is taken too (the file is then left alone without need).
 * (`sql` only under Deno's unstable `fmt-sql`, which poly does not read: not taken.)
 */
export function embeddedTemplate(text: string): string | undefined {
  const m = EMBEDDED.exec(text);
  return m ? (m[1] ?? m[2]).replace(/\s+/g, "") : undefined;
}

const EMBEDDED = /(?<![.\w$])(?:(html|svg|css)|(styled\s*(?:\.\s*[\w$]+|\([^()`]*\))))\s*(?:<[^`;]*>)?\s*`/;

/** The dprint engine (TOML, Markdown, Dockerfile; JavaScript, TypeScript and JSON under a `deno.json`). */
export const dprint: EngineSpec = {
  id: "dprint",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["toml", "markdown", "dockerfile", "javascript", "typescript", "json"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: Object.values(PLUGINS).map((p) => `${p.pkg} ${p.version}`).join(", ") + ", @dprint/formatter 0.6.0",
  defaultEnabled: true,
  // A run's files at once: the code blocks of all its Markdown files go to their formatters together.
  batch: { format: true },
  moduleUrls() {
    const formatter = import.meta.resolve("@dprint/formatter");
    return Promise.resolve([
      ...siblingUrls(formatter, ["mod.js", "common.js", "v3.js", "v4.js", "wasi.js"]),
      ...(Object.keys(PLUGINS) as PluginLanguage[]).map(pluginUrl),
    ]);
  },
  async load(): Promise<EngineInstance> {
    const { createFromBuffer } = await import("@dprint/formatter");
    return new Dprint((bytes) => createFromBuffer(bytes));
  },
};
