/**
 * yaml — YAML lint: every document must parse, and mapping keys must be unique
 * (npm `yaml`, a YAML 1.2 parser).
 *
 * - Tier: in-process (JavaScript). Languages: YAML (lint only; formatting is `prettier`).
 * - Findings carry the parser's code in kebab case, with line and column:
 *   `duplicate-key`, `bad-indent`, `missing-char`, `unexpected-token`, ... (errors,
 *   severity `error`) and parser warnings (severity `warning`). A YAML file is
 *   linted for exactly these problems, so they are diagnostics, not errored records.
 * - Multi-document streams (`---`) are checked document by document.
 * - `[lint.yaml.yaml]` keys: `select` / `ignore` / `rules.<code>.level`,
 *   `unique_keys` (default true), `version` ("1.1" or "1.2", default "1.2").
 *
 * Example: `a: 1\na: 2` → `duplicate-key Map keys must be unique` at 2:1.
 *
 * @module
 */
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { applyRuleSettings } from "../settings.ts";
import { packageFiles } from "../module.ts";
import { EngineError, type EngineInstance, type EngineSpec } from "../types.ts";

const PACKAGE = "yaml";
const VERSION = "2.9.1";

interface YamlProblem {
  code: string;
  message: string;
  linePos?: [{ line: number; col: number }, { line: number; col: number }?];
}

function toDiagnostic(p: YamlProblem, severity: Severity): Diagnostic {
  const [start, end] = p.linePos ?? [{ line: 1, col: 1 }];
  const title = p.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  return {
    engine: "yaml",
    code: p.code.toLowerCase().replace(/_/g, "-"),
    severity,
    title,
    span: {
      start_line: start.line,
      start_col: start.col,
      end_line: end?.line ?? start.line,
      end_col: end?.col ?? start.col,
    },
  };
}

/** The yaml lint engine. */
export const yaml: EngineSpec = {
  id: "yaml",
  tier: "in-process",
  lintLanguages: ["yaml"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return packageFiles(import.meta.resolve(PACKAGE), [".js"]);
  },
  async load(): Promise<EngineInstance> {
    const { parseAllDocuments } = await import("yaml");
    return {
      lint(file, settings) {
        const version = settings.tool.version ?? "1.2";
        if (version !== "1.1" && version !== "1.2") {
          throw new EngineError(`"version" must be "1.1" or "1.2", got ${JSON.stringify(version)}`);
        }
        const docs = parseAllDocuments(file.text, {
          uniqueKeys: settings.tool.unique_keys !== false,
          version,
          prettyErrors: true,
        });
        const list = Array.isArray(docs) ? docs : [docs];
        const diagnostics: Diagnostic[] = [];
        for (const doc of list) {
          for (const e of doc.errors) diagnostics.push(toDiagnostic(e as YamlProblem, "error"));
          for (const w of doc.warnings) diagnostics.push(toDiagnostic(w as YamlProblem, "warning"));
        }
        return { diagnostics: applyRuleSettings(diagnostics, settings) };
      },
    };
  },
};
