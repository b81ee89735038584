/**
 * biome — JavaScript, TypeScript (JSX/TSX), JSON/JSONC, CSS and GraphQL lint and
 * format. In-process (WebAssembly: `@biomejs/js-api` + `@biomejs/wasm-nodejs`),
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
 *   `configuration` with path-dependent keys such as `overrides` or `files`) are
 *   linted on the WebAssembly path; none is reported clean for want of a result.
 * - Fix: biome's safe fixes only (`fixFileMode: "safeFixes"`), on the WebAssembly path.
 * - Batch format ({@link Biome.formatMany}: `poly fmt`, with or without `--fix`): one
 *   native `biome format --write` process over private copies of the files' texts
 *   (`_format.ts`); a file it gives no clean result for (a parse error above
 *   all) is formatted on the WebAssembly path, which reports the error's position.
 * - Format: biome's formatter on the WebAssembly path; `lineWidth` from `[defaults]
 *   line_length`, `indentWidth` from `[defaults] indent_width` (default 2, spaces),
 *   `lineEnding` from `[defaults] line_ending`; `[fmt.<lang>.biome]` keys are biome
 *   formatter options (e.g. `indentStyle = "tab"`; JavaScript's `quoteStyle` goes in
 *   `configuration = { javascript = { formatter = { quoteStyle = "single" } } }`), checked
 *   against biome's schema when poly.toml loads (`lib/config/_engine_tables.ts`).
 * - Lint covers HTML, Vue, Svelte and Astro too, as `biome lint` does with its
 *   default configuration (their formatter stays `webfmt`).
 * - A parse error is a diagnostic (code `parse`, error), as `biome lint` reports it.
 * - Assist actions (`organizeImports`) are not reported: `biome lint` does not.
 * - The WebAssembly module (~1 s to load) is loaded only when a file needs it.
 * - A file biome's workspace refuses by its own rules (under `node_modules/`, or over
 *   `files.maxSize`: 1 MiB unless the `configuration` raises it) is skipped with that
 *   reason, not sent to biome (`_limits.ts`).
 *
 * Example: `debugger;` → `lint/suspicious/noDebugger` (error), removed by `--fix`? No:
 * biome marks that fix unsafe, so `--fix` leaves it and reports it as remaining.
 *
 * @module
 */
import { biomePath, configuration, type Finding, outcome, syntaxError } from "./_shared.ts";
import { lintNative, nativeFindings, type NativeLint, type NativeOptions, runNativeLint } from "./_native.ts";
import { formatNative } from "./_format.ts";
import { refusedByBiome } from "./_limits.ts";
import { messageOf } from "../module.ts";
import { bytesToUtf16 } from "../text.ts";
import {
  EngineError,
  type EngineInstance,
  EngineRefusal,
  type EngineSettings,
  type EngineSpec,
  type LintOutput,
  type Settled,
  type SourceFile,
  type StartedBatch,
} from "../types.ts";

const JS_API = "@biomejs/js-api";
const WASM = "@biomejs/wasm-nodejs";
const VERSION = "2.5.14";

interface BiomeDiagnostic {
  category?: string;
  severity: string;
  description: string;
  location: { span?: [number, number] | null };
}
interface BiomeApi {
  openProject(path?: string): { projectKey: number };
  applyConfiguration(key: number, configuration: unknown): void;
  lintContent(key: number, content: string, options: { filePath: string; fixFileMode?: string }): {
    content: string;
    diagnostics: BiomeDiagnostic[];
  };
  formatContent(key: number, content: string, options: { filePath: string }): {
    content: string;
    diagnostics: BiomeDiagnostic[];
  };
}

/** Biome needs a path with the right extension to pick the parser (and, for `overrides`, where it lies). */
function virtualPath(file: SourceFile, settings: EngineSettings): string {
  return biomePath(file, settings);
}

/** The WebAssembly module's diagnostics as findings (byte spans → string indices). */
function findings(text: string, diags: BiomeDiagnostic[]): Finding[] {
  return diags.map((d) => ({
    ...(d.category !== undefined ? { category: d.category } : {}),
    severity: d.severity,
    description: d.description,
    ...(d.location.span ? { range: bytesToUtf16(text, d.location.span) as [number, number] } : {}),
  }));
}

/**
 * One call into the WebAssembly module. The files biome declines by rules poly
 * knows (`node_modules/`, `files.maxSize`, protected lock files) never get here:
 * `refusedByBiome()` skips them first, with the reason. Any other file its
 * workspace refuses ("The file ... does not exist in the workspace") is an
 * {@link EngineRefusal}, a skip; any other failure an EngineError with biome's
 * message (the js-api wraps it in an error with an empty one: `messageOf`).
 */
function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const message = messageOf(e).trim();
    if (/does not exist in the workspace/.test(message)) throw new EngineRefusal("biome ignores this file");
    throw new EngineError(`biome failed: ${message || "it gave no reason"}`);
  }
}

let wasm: Promise<BiomeApi> | undefined;
/** Whether {@link wasm} has loaded. */
let wasmReady = false;

/** The WebAssembly module, loaded once per process (or worker) on first use. */
function loadWasm(): Promise<BiomeApi> {
  wasm ??= import("@biomejs/js-api/nodejs").then(({ Biome: Api }) => new Api() as unknown as BiomeApi);
  wasm.then(() => (wasmReady = true), () => (wasm = undefined));
  return wasm;
}

/** Projects opened in this process's WebAssembly module. */
let projectCount = 0;

/** The loaded biome engine. */
export class Biome implements EngineInstance {
  #projects = new Map<string, number>();
  /** Test hook: how the native path is run (see {@link NativeOptions}); `command: null` turns it off. */
  native: NativeOptions = {};

  async #project(settings: EngineSettings, kind: "lint" | "format"): Promise<[BiomeApi, number]> {
    const api = await loadWasm();
    const config = configuration(settings, kind);
    const key = JSON.stringify(config);
    let project = this.#projects.get(key);
    if (project === undefined) {
      // Project paths are unique per process: the module (and its projects) is shared by every instance.
      project = api.openProject(`/poly-biome-${projectCount++}`).projectKey;
      try {
        api.applyConfiguration(project, config);
      } catch (e) {
        const from = (settings.native?.files ?? []).map((f) => `"${f.path}"`).join(", ");
        throw new EngineError(
          `invalid biome settings${from ? ` (from ${from} and poly.toml)` : ""}: ${
            messageOf(e) || "biome gave no reason"
          }`,
        );
      }
      this.#projects.set(key, project);
    }
    return [api, project];
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
    const api = await loadWasm();
    const defaults = {
      line_length: 100,
      line_ending: "lf",
      final_newline: true,
      trim_trailing_whitespace: true,
    } as const;
    const project = api.openProject(`/poly-biome-${projectCount++}`).projectKey;
    api.applyConfiguration(project, configuration({ defaults, tool: {} }, "lint"));
    api.lintContent(project, "const a = 1;\nif (a == 2) { debugger; }\nexport { a };\n", { filePath: "prewarm.ts" });
  }

  /** Lints one file on the WebAssembly path. */
  async lint(file: SourceFile, settings: EngineSettings): Promise<LintOutput> {
    refusedByBiome(file, configuration(settings, "lint"), "lint");
    const [api, project] = await this.#project(settings, "lint");
    const result = call(() => api.lintContent(project, file.text, { filePath: virtualPath(file, settings) }));
    return outcome(file, findings(file.text, result.diagnostics), settings);
  }

  /**
   * Lints many files with one settings object: one native biome process for the
   * batch, the WebAssembly path for any file it gives no result for.
   */
  async lintMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<LintOutput>[]> {
    let native: (Finding[] | undefined)[];
    try {
      native = await lintNative(files, configuration(settings, "lint"), this.native);
    } catch {
      native = files.map(() => undefined);
    }
    return await this.#settle(files, settings, native);
  }

  /** {@link Biome.lintMany}, its native process started before the files are read. */
  startLintMany(refs: readonly Omit<SourceFile, "text">[], settings: EngineSettings): StartedBatch<LintOutput> {
    const spawned = Promise.withResolvers<void>();
    const native = { ...this.native, onSpawn: () => (this.native?.onSpawn?.(), spawned.resolve()) };
    const run = runNativeLint(refs.map((r) => r.path), configuration(settings, "lint"), native)
      .catch((): NativeLint => new Map())
      .finally(spawned.resolve);
    return {
      finish: async (files) => await this.#settle(files, settings, nativeFindings(await run, files)),
      ready: spawned.promise,
    };
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
        out.push(found ? outcome(files[i], found, settings) : await this.lint(files[i], settings));
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  async fix(file: SourceFile, settings: EngineSettings) {
    const [api, project] = await this.#project(settings, "lint");
    const before = (await this.lint(file, settings)).diagnostics.length;
    const result = call(
      () => api.lintContent(project, file.text, { filePath: virtualPath(file, settings), fixFileMode: "safeFixes" }),
    );
    if (result.content === file.text) return { text: file.text, fixed: 0 };
    const after = (await this.lint({ ...file, text: result.content }, settings)).diagnostics.length;
    return { text: result.content, fixed: Math.max(1, before - after) };
  }

  /**
   * Formats many files with one settings object: one native biome process for
   * the batch, the WebAssembly path for any file it gives no result for.
   */
  async formatMany(files: SourceFile[], settings: EngineSettings): Promise<Settled<string>[]> {
    let native: (string | undefined)[];
    try {
      native = await formatNative(files, configuration(settings, "format"), this.native);
    } catch {
      native = files.map(() => undefined);
    }
    const out: Settled<string>[] = [];
    for (let i = 0; i < files.length; i++) {
      try {
        out.push(native[i] ?? await this.format(files[i], settings));
      } catch (e) {
        out.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return out;
  }

  async format(file: SourceFile, settings: EngineSettings): Promise<string> {
    refusedByBiome(file, configuration(settings, "format"), "fmt");
    const [api, project] = await this.#project(settings, "format");
    const result = call(() => api.formatContent(project, file.text, { filePath: virtualPath(file, settings) }));
    const err = syntaxError(file.text, findings(file.text, result.diagnostics));
    if (err) throw err;
    return result.content;
  }
}

/** The biome engine. */
export const biome: EngineSpec = {
  id: "biome",
  tier: "in-process",
  lintLanguages: ["javascript", "typescript", "json", "css", "graphql", "html", "vue", "svelte", "astro"],
  formatLanguages: ["javascript", "typescript", "json", "css", "graphql"],
  capabilities: { lint: true, format: true, fix: true },
  upstream: `@biomejs/wasm-nodejs ${VERSION}`,
  defaultEnabled: true,
  batch: { lint: true, format: true },
  moduleUrls() {
    const wasmJs = import.meta.resolve(WASM);
    return Promise.resolve([
      import.meta.resolve(`${JS_API}/nodejs`),
      wasmJs,
      new URL("biome_wasm_bg.wasm", wasmJs).href,
    ]);
  },
  load() {
    return Promise.resolve(new Biome());
  },
};
