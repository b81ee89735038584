/**
 * biome — JavaScript, TypeScript (JSX/TSX), JSON/JSONC, CSS and GraphQL lint and
 * format, in-process (WebAssembly: `@biomejs/js-api` + `@biomejs/wasm-nodejs`).
 *
 * - Lint: biome's recommended rules, with biome's own severities. `[lint.<lang>.biome]`
 *   `ignore = ["noDebugger", "lint/style/useConst"]`, `select = [...]` (keeps only the
 *   named rules among those biome runs) and `[lint.<lang>.biome.rules.noDebugger]
 *   level = "warning" | "off"` adjust the result. A `configuration` key holds a raw
 *   biome configuration object merged under poly's (to enable non-recommended rules,
 *   e.g. `configuration = { linter = { rules = { style = { noDefaultExport = "error" } } } }`).
 * - Fix: biome's safe fixes only (`fixFileMode: "safeFixes"`).
 * - Format: biome's formatter; `lineWidth` from `[defaults] line_length`, `indentWidth`
 *   from `[defaults] indent_width` (default 2, spaces), `lineEnding` from
 *   `[defaults] line_ending`; `[fmt.<lang>.biome]` keys are biome formatter options
 *   (e.g. `indentStyle = "tab"`, and `quoteStyle = "single"` for JavaScript).
 * - A parse error is an errored record with its line and column.
 *
 * Example: `debugger;` → `lint/suspicious/noDebugger` (error), removed by `--fix`? No:
 * biome marks that fix unsafe, so `--fix` leaves it and reports it as remaining.
 *
 * @module
 */
import type { Diagnostic, Severity } from "../report/schema.ts";
import { applyRuleSettings } from "./_settings.ts";
import { bytesToUtf16, indexToPosition, lineStarts } from "./_text.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec, type SourceFile } from "./types.ts";

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

const SEVERITY: Record<string, Severity> = {
  fatal: "error",
  error: "error",
  warning: "warning",
  information: "info",
  hint: "hint",
};

function configuration(settings: EngineSettings, kind: "lint" | "format"): Record<string, unknown> {
  const raw = (settings.tool.configuration ?? {}) as Record<string, unknown>;
  const formatterKeys = kind === "format"
    ? Object.fromEntries(Object.entries(settings.tool).filter(([k]) => !["enabled", "configuration"].includes(k)))
    : {};
  const ending = settings.defaults.line_ending === "crlf"
    ? "crlf"
    : settings.defaults.line_ending === "auto"
    ? "auto"
    : "lf";
  return {
    ...raw,
    linter: {
      enabled: true,
      ...(raw.linter as object ?? {}),
      rules: { recommended: true, ...((raw.linter as { rules?: object })?.rules ?? {}) },
    },
    formatter: {
      enabled: true,
      indentStyle: "space",
      indentWidth: settings.defaults.indent_width ?? 2,
      lineWidth: settings.defaults.line_length,
      lineEnding: ending,
      ...(raw.formatter as object ?? {}),
      ...formatterKeys,
    },
    assist: { enabled: false },
  };
}

/** Biome needs a path with the right extension to pick the parser; keep the real name. */
function virtualPath(file: SourceFile): string {
  return file.relPath;
}

function syntaxError(file: SourceFile, diags: BiomeDiagnostic[]): EngineError | undefined {
  const bad = diags.find((d) => d.category === "parse" || d.severity === "fatal");
  if (!bad) return undefined;
  const start = bad.location.span ? bytesToUtf16(file.text, [bad.location.span[0]])[0] : 0;
  const { line, col } = indexToPosition(lineStarts(file.text), start);
  return new EngineError(`syntax error at ${line}:${col}: ${bad.description}`, { line, column: col });
}

class Biome implements EngineInstance {
  #projects = new Map<string, number>();
  constructor(private readonly api: BiomeApi) {}

  #project(settings: EngineSettings, kind: "lint" | "format"): number {
    const config = configuration(settings, kind);
    const key = JSON.stringify(config);
    let project = this.#projects.get(key);
    if (project === undefined) {
      project = this.api.openProject(`/poly-biome-${this.#projects.size}`).projectKey;
      try {
        this.api.applyConfiguration(project, config);
      } catch (e) {
        throw new EngineError(`invalid biome settings: ${e instanceof Error ? e.message : String(e)}`);
      }
      this.#projects.set(key, project);
    }
    return project;
  }

  lint(file: SourceFile, settings: EngineSettings) {
    const result = this.api.lintContent(this.#project(settings, "lint"), file.text, { filePath: virtualPath(file) });
    const err = syntaxError(file, result.diagnostics);
    if (err) throw err;
    const starts = lineStarts(file.text);
    const diagnostics: Diagnostic[] = result.diagnostics.map((d) => {
      const code = d.category?.replace(/^lint\//, "") ?? undefined;
      const diag: Diagnostic = {
        engine: "biome",
        code,
        severity: SEVERITY[d.severity] ?? "warning",
        title: d.description,
        url: code && d.category?.startsWith("lint/")
          ? `https://biomejs.dev/linter/rules/${kebab(code.split("/").pop()!)}/`
          : undefined,
      };
      if (d.location.span) {
        const [s, e] = bytesToUtf16(file.text, d.location.span);
        const a = indexToPosition(starts, s);
        const b = indexToPosition(starts, e);
        diag.span = { start_line: a.line, start_col: a.col, end_line: b.line, end_col: b.col };
      }
      return diag;
    });
    return { diagnostics: applyRuleSettings(diagnostics, settings) };
  }

  fix(file: SourceFile, settings: EngineSettings) {
    const project = this.#project(settings, "lint");
    const before = this.lint(file, settings).diagnostics.length;
    const result = this.api.lintContent(project, file.text, { filePath: virtualPath(file), fixFileMode: "safeFixes" });
    if (result.content === file.text) return { text: file.text, fixed: 0 };
    const after = this.lint({ ...file, text: result.content }, settings).diagnostics.length;
    return { text: result.content, fixed: Math.max(1, before - after) };
  }

  format(file: SourceFile, settings: EngineSettings): string {
    const result = this.api.formatContent(this.#project(settings, "format"), file.text, {
      filePath: virtualPath(file),
    });
    const err = syntaxError(file, result.diagnostics);
    if (err) throw err;
    return result.content;
  }
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** The biome engine. */
export const biome: EngineSpec = {
  id: "biome",
  tier: "in-process",
  lintLanguages: ["javascript", "typescript", "json", "css", "graphql"],
  formatLanguages: ["javascript", "typescript", "json", "css", "graphql"],
  capabilities: { lint: true, format: true, fix: true },
  upstream: `@biomejs/wasm-nodejs ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    const wasmJs = import.meta.resolve(WASM);
    return Promise.resolve([
      import.meta.resolve(`${JS_API}/nodejs`),
      wasmJs,
      new URL("biome_wasm_bg.wasm", wasmJs).href,
    ]);
  },
  async load() {
    const { Biome: Api } = await import("@biomejs/js-api/nodejs");
    return new Biome(new Api() as unknown as BiomeApi);
  },
};
