/**
 * toml — TOML lint: the document must parse (npm `smol-toml`, a TOML 1.0 parser).
 *
 * - Tier: in-process (JavaScript). Languages: TOML (lint only; formatting is `dprint`).
 * - Findings (severity `error`, with line and column): `syntax` (the document does
 *   not parse) and `duplicate-key` (a key or table defined twice). The parser stops
 *   at the first problem, so a file has at most one finding. These findings are
 *   the check itself, so they are diagnostics, not errored records.
 * - `[lint.toml.toml]` keys: `select` / `ignore` / `rules.<code>.level` (e.g.
 *   `[lint.toml.toml.rules.duplicate-key] level = "warning"`).
 *
 * Example: `a = 1\na = 2` → `duplicate-key` at 2:1.
 *
 * @module
 */
import type { Diagnostic } from "../../report/schema.ts";
import { applyRuleSettings } from "../settings.ts";
import { packageFiles } from "../module.ts";
import type { EngineInstance, EngineSpec } from "../types.ts";

const PACKAGE = "smol-toml";
const VERSION = "1.9.1";

/** The toml lint engine. */
export const toml: EngineSpec = {
  id: "toml",
  tier: "in-process",
  lintLanguages: ["toml"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return packageFiles(import.meta.resolve(PACKAGE), [".js"]);
  },
  async load(): Promise<EngineInstance> {
    const { parse, TomlError } = await import("smol-toml");
    return {
      lint(file, settings) {
        const diagnostics: Diagnostic[] = [];
        try {
          parse(file.text);
        } catch (e) {
          if (!(e instanceof TomlError)) throw e;
          const lines = e.message.split("\n");
          const title = lines[0].replace(/^Invalid TOML document: /, "");
          const duplicate = /redefine|already defined|duplicate/i.test(title);
          diagnostics.push({
            engine: "toml",
            code: duplicate ? "duplicate-key" : "syntax",
            severity: "error",
            title: title.charAt(0).toUpperCase() + title.slice(1),
            span: { start_line: e.line, start_col: e.column, end_line: e.line, end_col: e.column },
          });
        }
        return { diagnostics: applyRuleSettings(diagnostics, settings) };
      },
    };
  },
};
