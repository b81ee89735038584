/**
 * biome — JavaScript, TypeScript (JSX/TSX), JSON/JSONC, CSS and GraphQL lint and
 * format. In-process (WebAssembly: `@biomejs/wasm-nodejs`'s workspace, driven directly),
 * with biome's native command line (`@biomejs/biome`, the same version) as the
 * batch path of check runs.
 *
 * - Lint: biome's recommended rules, with biome's own severities. `[lint.<lang>.biome]`
 *   `ignore = ["noDebugger", "lint/style/useConst"]`, `select = [...]` (keeps only the
 *   named rules among those biome runs) and `[lint.<lang>.biome.rules.noDebugger]
 *   level = "warning" | "off"` adjust the result. A `configuration` key holds a raw
 *   biome configuration object merged under poly's (to enable non-recommended rules,
 *   e.g. `configuration = { linter = { rules = { style = { noDefaultExport = "error" } } } }`).
 *   Diagnostics come in report order (position, then code).
 * - Batch lint ({@link Biome.lintMany}, what a check run without `--fix` uses): all
 *   files of one settings go to one native `biome check` process (formatter off;
 *   started through `sh`, on Windows through `node`; more processes only for
 *   very long path lists), which reads the files itself under a generated
 *   configuration equal to the one the WebAssembly path applies, isolated from the
 *   project's own `biome.json`, ignore files and `package.json`. Its output is
 *   converted to exactly what the WebAssembly path reports for the same file (the
 *   parity is tested); results are cached under the same key either way. Files the
 *   native run gives no result for (ignored or protected by biome, over its size
 *   limit, a crash, no `sh`/`node`, no native package for this platform, a
 *   `configuration` with paths other than a repository's globs, such as `files`
 *   or `extends`) are linted on the WebAssembly path; none is reported clean for
 *   want of a result. A repository's configuration with globs (`overrides`) is
 *   applied below a private mirror of its folder, where the globs match as there.
 * - Domains: the nearest `package.json` (`settings.manifest`) is the files' manifest, as
 *   on biome's command line: its dependencies turn on the recommended rules of biome's
 *   domains (react → useExhaustiveDependencies, next → noImgElement, vitest/jest →
 *   noFocusedTests, ...), its `"type": "commonjs"` makes `.js` files scripts. The
 *   WebAssembly path puts it in a memory file system biome's scanner indexes; the
 *   native path lints links to the files beside a copy of it.
 * - Fix: biome's safe fixes only (`fixFileMode: "safeFixes"`) and its assist actions, on the WebAssembly path
 *   (which leaves Vue, Svelte and Astro files as they are: its `fixFile` returns their script alone);
 *   batch fix ({@link Biome.fixMany}, what `poly lint --fix` uses): one native `biome check --write` process over
 *   private copies of the files' texts (`_fix.ts`), which also gives the findings left in each fixed text; a file it
 *   gives no result for (a parse error above all) is fixed on the WebAssembly path.
 * - Batch format ({@link Biome.formatMany}: `poly fmt`, with or without `--fix`): one
 *   native `biome format --write` process over private copies of the files' texts
 *   (`_format.ts`), each at its path below the configuration's directory (globs match as
 *   there) beside its `"type": "commonjs"` manifest; a file it gives no clean result for
 *   (a parse error above all) is formatted on the WebAssembly path, which reports the
 *   error's position.
 * - Format: biome's formatter on the WebAssembly path; `lineWidth` from `[defaults]
 *   line_length`, `indentWidth` from `[defaults] indent_width` (default 2, spaces),
 *   `lineEnding` from `[defaults] line_ending`; `[fmt.<lang>.biome]` keys are biome
 *   formatter options (e.g. `indentStyle = "tab"`; JavaScript's `quoteStyle` goes in
 *   `configuration = { javascript = { formatter = { quoteStyle = "single" } } }`), checked
 *   against biome's schema when poly.toml loads (`lib/config/_engine_tables.ts`).
 * - Lint covers HTML, Vue, Svelte and Astro too, as `biome lint` does with its
 *   default configuration (their formatter stays `webfmt`), and SVG (as HTML, the CSS
 *   of its `<style>` too), which `biome format` does not format: nor does poly.
 * - A parse error is a diagnostic (code `parse`, error), as `biome lint` reports it.
 * - Assist actions (`organizeImports`) are not reported: `biome lint` does not.
 * - The WebAssembly module (~1 s to load) is loaded only when a file needs it. A file
 *   biome crashes on (a panic or a trap in the module) is tried once more in a module
 *   loaded afresh (what a crash leaves in its memory, a query half-run, would otherwise
 *   fail every file after it); a crash that repeats is an errored record saying so,
 *   cached like a finding (`againOnCrash`).
 * - A file biome's workspace refuses by its own rules (under `node_modules/`, or over
 *   `files.maxSize`: 1 MiB unless the `configuration` raises it) is skipped with that
 *   reason, not sent to biome (`_limits.ts`).
 *
 * Example: `debugger;` → `lint/suspicious/noDebugger` (error), removed by `--fix`? No:
 * biome marks that fix unsafe, so `--fix` leaves it and reports it as remaining.
 *
 * @module
 */
import { biomePath, configuration, type Finding, isParseError, outcome, syntaxError } from "./_shared.ts";
import { CANCELLED, runCancelled } from "../../process/run_signal.ts";
import {
  lintNative,
  nativeFindings,
  type NativeLint,
  type NativeOptions,
  nativeSafe,
  runNativeLint,
} from "./_native.ts";
import { formatNative, type NativeFormat } from "./_format.ts";
import { fixNative, type NativeFix } from "./_fix.ts";
import { refusedByBiome } from "./_limits.ts";
import { freshCommonJs, messageOf, wasmCall } from "../module.ts";
import { bytesToUtf16 } from "../text.ts";
import {
  againOnCrash,
  type BatchGroup,
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type FixGroup,
  type FixOutput,
  type Language,
  type Linted,
  type LintOutput,
  type Settled,
  type SourceFile,
  SourceSyntaxError,
  type StartedBatch,
} from "../types.ts";

const WASM = "@biomejs/wasm-nodejs";
const VERSION = "2.5.14";

interface BiomeDiagnostic {
  category?: string;
  severity: string;
  description: string;
  location: { span?: [number, number] | null };
}
/** The part of biome's WebAssembly `Workspace` poly calls. */
interface Workspace {
  openProject(p: { path: string; openUninitialized: boolean }): { projectKey: number };
  updateSettings(p: { projectKey: number; configuration: unknown; workspaceDirectory: string }): unknown;
  scanProject(p: { projectKey: number; scanKind: "knownFiles"; force: boolean; watch: boolean }): unknown;
  openFile(
    p: { projectKey: number; path: string; content: { type: "fromClient"; content: string; version: 0 } },
  ): unknown;
  closeFile(p: { projectKey: number; path: string }): void;
  pullDiagnostics(p: { projectKey: number; path: string; categories: string[]; pullCodeActions: false }): {
    diagnostics: BiomeDiagnostic[];
    errors: number;
  };
  fixFile(p: {
    projectKey: number;
    path: string;
    fixFileMode: string;
    shouldFormat: false;
    ruleCategories: string[];
  }): { code: string };
  formatFile(p: { projectKey: number; path: string }): { code: string };
}
/** biome's WebAssembly workspace over a memory file system (where each project's `package.json` lies). */
interface Wasm {
  workspace: Workspace;
  files: { insert(path: string, data: Uint8Array): void };
}

/**
 * Where a file lies for biome's WebAssembly workspace: its absolute path under the
 * project's own prefix (`/poly-biome-<n>`), and the workspace directory its
 * configuration's paths are relative to — the governing biome (or prettier) file's
 * directory, else the directory the run's relative paths start from — so that
 * `overrides` globs match as on the command line and the nearest `package.json`
 * (put at its own absolute path under the same prefix) is the file's manifest.
 */
function placement(file: SourceFile, settings: EngineSettings): { base: string | undefined; rel: string } {
  const rel = biomePath(file, settings);
  const path = posix(file.path);
  if (!path.startsWith("/") || !path.endsWith(`/${rel}`)) return { base: undefined, rel };
  return { base: path.slice(0, path.length - rel.length - 1), rel };
}

/** An absolute path with forward slashes and a leading `/` (`C:\\x` → `/C/x`). */
function posix(path: string): string {
  const p = path.replace(/\\/g, "/");
  return /^[A-Za-z]:\//.test(p) ? `/${p[0]}${p.slice(2)}` : p;
}

/**
 * The WebAssembly module's diagnostics for `file` as findings (byte spans →
 * string indices). In a Vue, Svelte or Astro file the module places them in the
 * script it lints, the command line in the whole file: they are moved by where
 * that script starts ({@link embeddedStart}).
 */
function findings(file: SourceFile, diags: BiomeDiagnostic[]): Finding[] {
  const { text } = file;
  const base = diags.length > 0 ? embeddedStart(file.language, text) : 0;
  return diags.map((d) => {
    const span = d.location.span;
    return {
      ...(d.category !== undefined ? { category: d.category } : {}),
      severity: d.severity,
      description: d.description,
      ...(span ? { range: bytesToUtf16(text, [span[0] + base, span[1] + base]) as [number, number] } : {}),
    };
  });
}

/**
 * Where the script biome lints in `text` starts, in UTF-8 bytes (0 for a
 * language biome lints whole): a Vue or Svelte file's first `<script>` block
 * (after the line break that follows its opening tag: Vue's script must start
 * on a new line, Svelte's may start on the tag's own), an Astro file's
 * frontmatter (after its first `---` line's dashes); a `>` inside a quoted
 * attribute (`generics="T extends Record<K, V>"`) does not end the tag. As biome
 * 2.5 finds these blocks: tests/engines/biome/native_test.ts holds both paths'
 * findings equal on each shape (and 1,713 such files of vite, astro and midday did).
 */
export function embeddedStart(language: Language, text: string): number {
  const found = EMBEDDED_START[language]?.exec(text);
  return found ? new TextEncoder().encode(text.slice(0, found.index + found[0].length)).length : 0;
}

/** A `<script ...>` opening tag, its quoted attributes whole. */
const SCRIPT_TAG = String.raw`<script(?:\s(?:"[^"]*"|'[^']*'|[^'">])*)?>`;

/** {@link embeddedStart}'s patterns: what ends before the script biome lints in each language. */
const EMBEDDED_START: Partial<Record<Language, RegExp>> = {
  vue: new RegExp(String.raw`${SCRIPT_TAG}\r?\n`, "i"),
  svelte: new RegExp(String.raw`${SCRIPT_TAG}\r?\n?`, "i"),
  astro: /^---\s*$/m,
};

/**
 * One call into the WebAssembly module. The files biome declines by rules poly
 * knows (`node_modules/`, `files.maxSize`, protected lock files) never get here:
 * `refusedByBiome()` skips them first, with the reason. Any other file its
 * workspace refuses ("The file ... does not exist in the workspace") is an
 * {@link EngineRefusal}, a skip; any other failure an EngineError with biome's
 * message (`messageOf` unwraps what the module throws), or what `failed` makes of
 * it. A crash is an EngineError saying so, and the module is discarded ({@link wasmCall}).
 */
function call<T>(fn: () => T, failed: (message: string) => Error = failure): T {
  try {
    return wasmCall("biome", fn, discardWasm);
  } catch (e) {
    throw e instanceof EngineError ? e : failed(wasmMessage(e));
  }
}

/** What a call's error is, unless `call` is told otherwise: a refusal (a skip), or biome's failure. */
function failure(message: string): Error {
  if (/does not exist in the workspace/.test(message)) return new EngineRefusal("biome ignores this file");
  return new EngineError(`biome failed: ${message || "it gave no reason"}`);
}

/** The message of what the WebAssembly module threw (it throws values that print as "Error: ..."). */
function wasmMessage(e: unknown): string {
  return messageOf(e).replace(/^(?:Error: )+/, "").trim();
}

/** `fn` with `content` open at `path` in the project (closed after, whatever happens). */
function withFile<T>(ws: Workspace, projectKey: number, path: string, content: string, fn: () => T): T {
  ws.openFile({ projectKey, path, content: { type: "fromClient", content, version: 0 } });
  try {
    return fn();
  } finally {
    ws.closeFile({ projectKey, path });
  }
}

/** biome's lint diagnostics (syntax, rules, assist actions) for `content` at `path`, as `biome lint` pulls them. */
function pullLint(ws: Workspace, projectKey: number, path: string, content: string): BiomeDiagnostic[] {
  return withFile(
    ws,
    projectKey,
    path,
    content,
    () =>
      ws.pullDiagnostics({ projectKey, path, categories: ["syntax", "lint", "action"], pullCodeActions: false })
        .diagnostics,
  );
}

let wasm: Promise<Wasm> | undefined;
/** Whether {@link wasm} has loaded. */
let wasmReady = false;
/** Whether a module was discarded: the next is evaluated afresh rather than taken from the module cache. */
let discarded = false;

/** The WebAssembly module, loaded once per process (or worker) on first use, and again after a crash. */
function loadWasm(): Promise<Wasm> {
  wasm ??=
    (discarded
      ? Promise.resolve().then(() => freshCommonJs<typeof import("@biomejs/wasm-nodejs")>(WASM))
      : import("@biomejs/wasm-nodejs")).then((biomeWasm) => {
        biomeWasm.main();
        const files = new biomeWasm.MemoryFileSystem();
        return { files, workspace: biomeWasm.Workspace.withFileSystem(files) as unknown as Workspace };
      });
  wasm.then(() => (wasmReady = true), () => (wasm = undefined));
  return wasm;
}

/** Drops the loaded module after a crash: the next file loads a new instance. */
function discardWasm(): void {
  wasm = undefined;
  wasmReady = false;
  discarded = true;
}

/** Projects opened in this process's WebAssembly module. */
let projectCount = 0;

/** A project of the WebAssembly workspace and where one file lies in it. */
interface Placed {
  ws: Workspace;
  projectKey: number;
  /** The file's path in the project. */
  path: string;
}

/** The loaded biome engine. */
export class Biome implements EngineInstance {
  #projects = new Map<string, { projectKey: number; prefix: string; module: Wasm }>();
  /** Test hook: how the native path is run (see {@link NativeOptions}); `command: null` turns it off. */
  native: NativeOptions = {};

  /**
   * The project for `file` under `settings`: one per configuration, workspace
   * directory and manifest, opened on first use. Its manifest goes into the
   * memory file system at its own path and is indexed by biome's scanner, which
   * builds the project layout biome turns domains on from.
   */
  async #project(file: SourceFile, settings: EngineSettings, kind: "lint" | "format" | "fix"): Promise<Placed> {
    const module = await loadWasm();
    const { workspace: ws, files } = module;
    const config = configuration(settings, kind);
    const { base, rel } = placement(file, settings);
    const manifest = base !== undefined ? settings.manifest : undefined;
    const key = JSON.stringify([config, base ?? "", manifest?.files[0]?.path, manifest?.files[0]?.hash]);
    let found = this.#projects.get(key);
    // A project of a module discarded since is opened again in the new one.
    if (found?.module !== module) {
      // Project paths are unique per process: the module (and its projects) is shared by every instance.
      const prefix = `/poly-biome-${projectCount++}`;
      const projectKey = ws.openProject({ path: prefix, openUninitialized: true }).projectKey;
      call(
        () => ws.updateSettings({ projectKey, configuration: config, workspaceDirectory: `${prefix}${base ?? ""}` }),
        (message) => {
          const from = (settings.native?.files ?? []).map((f) => `"${f.path}"`).join(", ");
          return new EngineError(
            `invalid biome settings${from ? ` (from ${from} and poly.toml)` : ""}: ${
              message || "biome gave no reason"
            }`,
          );
        },
      );
      if (manifest) {
        const data = new TextEncoder().encode(JSON.stringify(manifest.options));
        files.insert(`${prefix}${posix(manifest.files[0].path)}`, data);
        call(() => ws.scanProject({ projectKey, scanKind: "knownFiles", force: true, watch: false }));
      }
      this.#projects.set(key, found = { projectKey, prefix, module });
    }
    return { ws, projectKey: found.projectKey, path: `${found.prefix}${base ?? ""}/${rel}` };
  }

  /** The WebAssembly module is loaded: a few files lint here sooner than a native process starts. */
  warm(): boolean {
    return wasmReady;
  }

  /**
   * Loads the WebAssembly module and lints a few lines under the default
   * configuration: the first configuration with rules costs ~0.5 s to apply and
   * the first lint ~0.1 s, whatever the settings; later projects cost ~3 ms.
   */
  async prewarm(): Promise<void> {
    const { workspace: ws } = await loadWasm();
    const defaults = {
      line_length: 100,
      line_ending: "lf",
      final_newline: true,
      trim_trailing_whitespace: true,
    } as const;
    const prefix = `/poly-biome-${projectCount++}`;
    const projectKey = ws.openProject({ path: prefix, openUninitialized: true }).projectKey;
    ws.updateSettings({
      projectKey,
      configuration: configuration({ defaults, tool: {} }, "lint"),
      workspaceDirectory: prefix,
    });
    pullLint(ws, projectKey, `${prefix}/prewarm.ts`, "const a = 1;\nif (a == 2) { debugger; }\nexport { a };\n");
  }

  /** Lints one file on the WebAssembly path. */
  async lint(file: SourceFile, settings: EngineSettings): Promise<LintOutput> {
    refusedByBiome(file, configuration(settings, "lint"), "lint");
    return await againOnCrash(async () => {
      const { ws, projectKey, path } = await this.#project(file, settings, "lint");
      const diagnostics = call(() => pullLint(ws, projectKey, path, file.text));
      return outcome(file, findings(file, diagnostics), settings);
    });
  }

  /**
   * Lints many files with one settings object: one native biome process for the
   * batch, the WebAssembly path for any file it gives no result for.
   */
  async lintMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]> {
    let native: (Finding[] | undefined)[];
    try {
      native = await lintNative(
        files,
        configuration(settings, "lint"),
        this.native,
        settings.manifest,
        settings.native?.root,
      );
    } catch {
      native = files.map(() => undefined);
    }
    return await this.#settle(files, settings, native);
  }

  /**
   * Several groups' {@link Biome.lintMany}, their native processes started
   * before the files are read (the pipeline calls this rather than an engine's
   * `startLintMany` when it has it, early or late). Groups with the same
   * generated configuration share one native process, each package below its own
   * copy of its manifest (`_native.ts`), as biome lints a monorepo. One process
   * rather than several side by side: each uses every core itself, and on two
   * cores three took 5–9% more CPU for the same files (docs/performance.md).
   */
  startLintGroups(groups: readonly BatchGroup[]): StartedBatch<LintOutput>[] {
    const configs = groups.map((g) => configuration(g.settings, "lint"));
    // Files without a manifest are named by their own paths: never beside a package's links.
    // A configuration with globs is applied below its own directory ({@link runNativeLint}): one process per directory.
    const shared = Map.groupBy(
      groups.keys(),
      (i) =>
        `${groups[i].settings.manifest ? "package" : "none"}\0${JSON.stringify(configs[i])}\0${
          nativeSafe(configs[i]) ? "" : groups[i].settings.native?.root ?? ""
        }`,
    );
    const started: StartedBatch<LintOutput>[] = new Array(groups.length);
    for (const members of shared.values()) {
      const spawned = Promise.withResolvers<void>();
      const native = {
        ...this.native,
        onSpawn: () => (this.native?.onSpawn?.(), spawned.resolve()),
        onQueued: () => (this.native?.onQueued?.(), spawned.resolve()),
      };
      const packages = members.map((i) => ({
        paths: groups[i].files.map((f) => f.path),
        manifest: groups[i].settings.manifest,
      }));
      const first = groups[members[0]];
      const run = runNativeLint(packages, configs[members[0]], native, first.settings.native?.root)
        .catch((): NativeLint => new Map())
        .finally(spawned.resolve);
      for (const i of members) {
        started[i] = {
          finish: async (files) => await this.#settle(files, groups[i].settings, nativeFindings(await run, files)),
          ready: spawned.promise,
        };
      }
    }
    return started;
  }

  /** Native findings as results; the WebAssembly path for every file without them. */
  async #settle(
    files: SourceFile[],
    settings: EngineSettings,
    native: (Finding[] | undefined)[],
  ): Promise<Settled<LintOutput>[]> {
    const out: Settled<LintOutput>[] = [];
    for (let i = 0; i < files.length; i++) {
      const found = native[i];
      try {
        if (!found && runCancelled()) {
          // The native process was stopped with its run: no WebAssembly pass over files nobody waits for.
          out.push(new EngineError(CANCELLED));
          continue;
        }
        out.push(found ? outcome(files[i], found, settings) : await this.lint(files[i], settings));
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  fix(file: SourceFile, settings: EngineSettings) {
    // Refused before the module loads, as `lint` refuses it.
    refusedByBiome(file, configuration(settings, "lint"), "lint");
    // The module's `fixFile` gives a Vue, Svelte or Astro file's script alone, not the file (written back, it would
    // replace the whole file): on this path such a file is left as it is, its findings reported. The native path
    // (`fixMany`) puts the fixed script back in its file.
    if (EMBEDDED_START[file.language]) return Promise.resolve({ text: file.text, fixed: 0 });
    return againOnCrash(() => this.#fix(file, settings));
  }

  /**
   * Fixes many files with one settings object: one native biome process over copies of their texts (`_fix.ts`),
   * which also gives the findings left in each fixed text; the WebAssembly path for any file it gives no result for.
   */
  async fixMany(files: SourceFile[], settings: EngineSettings, linted?: Linted): Promise<Settled<FixOutput>[]> {
    return (await this.fixGroups([{ files, settings, linted }]))[0];
  }

  /**
   * Several groups' {@link Biome.fixMany}: groups with the same generated configuration share one native process,
   * each package's files below a copy of its own manifest's fields, as biome fixes a monorepo's packages.
   */
  async fixGroups(groups: readonly FixGroup[]): Promise<Settled<FixOutput>[][]> {
    const configs = groups.map((g) => configuration(g.settings, "fix"));
    const shared = Map.groupBy(
      groups.keys(),
      (i) => `${JSON.stringify(configs[i])}\0${nativeSafe(configs[i]) ? "" : groups[i].settings.native?.root ?? ""}`,
    );
    const out: Settled<FixOutput>[][] = new Array(groups.length);
    await Promise.all([...shared.values()].map(async (members) => {
      const files = members.flatMap((i) => groups[i].files);
      const manifests = members.flatMap((i) => groups[i].files.map(() => groups[i].settings.manifest));
      const linted = members.flatMap((i) => groups[i].files.map((_, j) => groups[i].linted?.[j]));
      const first = groups[members[0]].settings;
      let native: (NativeFix | undefined)[];
      try {
        const known = linted.map((found) => found !== undefined);
        native = await fixNative(files, configs[members[0]], this.native, first.native?.root, manifests, known);
      } catch {
        native = files.map(() => undefined);
      }
      let at = 0;
      for (const i of members) {
        const { files: own, settings } = groups[i];
        const from = at;
        out[i] = await this.#fixed(own, settings, native.slice(from, at += own.length), linted.slice(from, at));
      }
    }));
    return out;
  }

  /**
   * Native fixes as results (counted as the WebAssembly path counts, from `linted` where known); the WebAssembly path
   * for every file without.
   */
  async #fixed(
    files: SourceFile[],
    settings: EngineSettings,
    native: (NativeFix | undefined)[],
    linted: Linted,
  ): Promise<Settled<FixOutput>[]> {
    const out: Settled<FixOutput>[] = [];
    for (let i = 0; i < files.length; i++) {
      const file = files[i];
      const found = native[i];
      try {
        if (!found) {
          out.push(await this.fix(file, settings));
          continue;
        }
        // Unchanged: its findings are the lint's (a syntax error thrown, when the text as read does not parse).
        if (found.text === file.text) {
          out.push({ text: file.text, fixed: 0, lint: outcome(file, found.after, settings) });
          continue;
        }
        // What was read does not parse, or biome's fixes leave a text that does not (see `#fix`): kept as it is.
        const was = found.before ? outcome(file, found.before, settings) : linted[i]!;
        if (found.after.some(isParseError)) {
          out.push({ text: file.text, fixed: 0, lint: was });
          continue;
        }
        // As the WebAssembly path counts: the findings the fixes removed, at least one once the text changed.
        const lint = outcome({ ...file, text: found.text }, found.after, settings);
        out.push({ text: found.text, fixed: Math.max(1, was.diagnostics.length - lint.diagnostics.length), lint });
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  async #fix(file: SourceFile, settings: EngineSettings): Promise<FixOutput> {
    const config = configuration(settings, "fix");
    const { ws, projectKey, path } = await this.#project(file, settings, "fix");
    // A file that does not parse is not fixed: its syntax error is thrown from here, the findings of the text as read.
    const found = await this.lint(file, settings);
    const before = found.diagnostics.length;
    const fixed = call(() =>
      withFile(ws, projectKey, path, file.text, () =>
        ws.fixFile({
          projectKey,
          path,
          fixFileMode: "safeFixes",
          shouldFormat: false,
          // The assist actions the configuration enables, as `biome check --write` applies them.
          ruleCategories: (config.assist as { enabled?: boolean }).enabled === false
            ? ["syntax", "lint"]
            : ["syntax", "lint", "action"],
        }).code)
    );
    if (fixed === file.text) return { text: file.text, fixed: 0, lint: found };
    let after: number;
    try {
      after = (await this.lint({ ...file, text: fixed }, settings)).diagnostics.length;
    } catch (e) {
      // biome's fixes would leave a file that parsed one that does not (noUselessEscapeInString turning `'<\/style>'`
      // inside an HTML `<style>` into `'</style>'`, which ends the element): not applied, the file kept as it is, with
      // the findings in it — never the syntax error of a text that was not written.
      if (e instanceof SourceSyntaxError) return { text: file.text, fixed: 0, lint: found };
      throw e;
    }
    return { text: fixed, fixed: Math.max(1, before - after) };
  }

  /**
   * Formats many files with one settings object: one native biome process for
   * the batch, the WebAssembly path for any file it gives no result for.
   */
  async formatMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]> {
    let native: (NativeFormat | undefined)[];
    try {
      // The copies lie below the configuration's directory, as its globs expect, beside the manifest that makes
      // `.js` files scripts (format settings carry one only for `"type": "commonjs"`).
      native = await formatNative(
        files,
        configuration(settings, "format"),
        this.native,
        settings.native?.root,
        settings.manifest,
      );
    } catch {
      native = files.map(() => undefined);
    }
    const out: Settled<string>[] = [];
    for (let i = 0; i < files.length; i++) {
      try {
        // A native parse error is the WebAssembly path's (biome refuses a file over its size before parsing it).
        out.push(native[i] ?? await this.format(files[i], settings));
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  async format(file: SourceFile, settings: EngineSettings): Promise<string> {
    refusedByBiome(file, configuration(settings, "format"), "fmt");
    return await againOnCrash(() => this.#format(file, settings));
  }

  async #format(file: SourceFile, settings: EngineSettings): Promise<string> {
    const { ws, projectKey, path } = await this.#project(file, settings, "format");
    // As `biome format` does: no formatting of a file that does not parse.
    const result = call(() =>
      withFile(ws, projectKey, path, file.text, () => {
        const pulled = ws.pullDiagnostics({ projectKey, path, categories: ["syntax"], pullCodeActions: false });
        return {
          diagnostics: pulled.diagnostics,
          content: pulled.errors === 0 ? ws.formatFile({ projectKey, path }).code : file.text,
        };
      })
    );
    const err = syntaxError(file.text, findings(file, result.diagnostics));
    if (err) throw err;
    return result.content;
  }
}

/** The biome engine. */
export const biome: EngineSpec = {
  id: "biome",
  tier: "in-process",
  lintLanguages: ["javascript", "typescript", "json", "css", "graphql", "html", "vue", "svelte", "astro", "svg"],
  // HTML, Vue, Svelte and Astro only where the repository's biome file turns its HTML formatter on (lib/run/plan.ts).
  formatLanguages: ["javascript", "typescript", "json", "css", "graphql", "html", "vue", "svelte", "astro"],
  capabilities: { lint: true, format: true, fix: true },
  upstream: `@biomejs/wasm-nodejs ${VERSION}`,
  defaultEnabled: true,
  batch: { lint: true, format: true, fix: true },
  moduleUrls() {
    const wasmJs = import.meta.resolve(WASM);
    return Promise.resolve([
      wasmJs,
      new URL("biome_wasm_bg.wasm", wasmJs).href,
    ]);
  },
  load() {
    return Promise.resolve(new Biome());
  },
};
