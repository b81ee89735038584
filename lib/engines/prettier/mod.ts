/**
 * prettier — YAML formatting, in-process (`prettier/standalone` with its YAML plugin).
 *
 * - Tier: in-process (JavaScript). Languages: YAML (format only; linting is `yaml`).
 * - `[defaults] line_length` → `printWidth`, `indent_width` → `tabWidth` (default 2),
 *   `line_ending` → `endOfLine`; `final_newline` is applied to the output.
 * - `[fmt.yaml.prettier]` keys: `single_quote` (`singleQuote`), `bracket_spacing`
 *   (`bracketSpacing`), `prose_wrap` (`proseWrap`: "always" | "never" | "preserve").
 *   An unknown key is an errored record naming it (prettier itself ignores them).
 * - The repository's prettier or oxfmt configuration, where one governs (lib/config/native/prettier.ts), replaces
 *   `[defaults]`: the file's options as the tool resolves them (its `overrides` by path, the `.editorconfig` beneath),
 *   prettier's defaults filling the rest (oxfmt's width, 100); the table's keys apply on top.
 * - Templates (Helm, Jinja, `{{ }}` outside quotes) are never handed to it: see `templates.ts`.
 * - A syntax error is an errored record with prettier's line and column.
 *
 * Example: `a:   1\nb:\n    -   x` → `a: 1\nb:\n  - x`.
 *
 * @module
 */
import { styleOptionsFor } from "../../config/native/prettier.ts";
import { finishText } from "../layout.ts";
import { messageOf } from "../module.ts";
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type EngineSpec,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

const VERSION = "3.10.1";

const KEYS: Record<string, string> = {
  single_quote: "singleQuote",
  singleQuote: "singleQuote",
  bracket_spacing: "bracketSpacing",
  bracketSpacing: "bracketSpacing",
  prose_wrap: "proseWrap",
  proseWrap: "proseWrap",
};
const UNIFORM = new Set(["enabled", "select", "ignore", "rules"]);

/** prettier's options for one file's settings (`path`: the file, whose path picks a native configuration's overrides). */
export function prettierOptions(settings: EngineSettings, path = ""): Record<string, unknown> {
  const d = settings.defaults;
  const options: Record<string, unknown> = settings.native
    ? { ...styleOptionsFor(settings.native, path), parser: "yaml" }
    : { parser: "yaml", printWidth: d.line_length, tabWidth: d.indent_width ?? 2, endOfLine: d.line_ending };
  for (const [key, value] of Object.entries(settings.tool)) {
    if (UNIFORM.has(key)) continue;
    const name = KEYS[key];
    if (!name) {
      throw new EngineError(
        `unknown setting "${key}" in [fmt.yaml.prettier] (known: single_quote, bracket_spacing, prose_wrap)`,
      );
    }
    options[name] = value;
  }
  return options;
}

/** The prettier (YAML) engine. */
export const prettier: EngineSpec = {
  id: "prettier",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["yaml"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `prettier ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve([import.meta.resolve("prettier/standalone"), import.meta.resolve("prettier/plugins/yaml")]);
  },
  async load(): Promise<EngineInstance> {
    const [core, plugin] = await Promise.all([import("prettier/standalone"), import("prettier/plugins/yaml")]);
    return {
      async format(file, settings) {
        const options = prettierOptions(settings, file.path);
        let out: string;
        try {
          out = await core.format(file.text, { ...options, plugins: [plugin] });
        } catch (e) {
          const loc = (e as { loc?: { start?: { line: number; column: number } } }).loc?.start;
          const title = messageOf(e).split("\n")[0].replace(/ \(\d+:\d+\)$/, "");
          if (loc) {
            throw new SourceSyntaxError([syntaxDiagnostic("prettier", "syntax", title, loc)]);
          }
          throw new EngineError(title);
        }
        if (!settings.native) return finishText(out, file.text, settings.defaults);
        // prettier's own line endings; oxfmt's insertFinalNewline = false drops the last one.
        return settings.native.options.insertFinalNewline === false ? out.replace(/(\r?\n|\r)+$/, "") : out;
      },
    };
  },
};
