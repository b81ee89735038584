/**
 * oxfmt — in-process (the `oxfmt` package's `format()`: oxc's formatter as a native Node-API module, the same code as
 * oxfmt's command line, with the prettier it embeds for the languages oxc does not print itself).
 *
 * - Tier: in-process (N-API). Languages: JavaScript, TypeScript, JSON, CSS, GraphQL, Markdown, HTML, Vue, YAML and
 *   TOML, where the repository's oxfmt file (`.oxfmtrc.json`, `.oxfmtrc.jsonc`, `oxfmt.config.ts`) governs them: the
 *   repository's formatter formats its files (lib/run/plan.ts says when), or where poly.toml names it
 *   (`[fmt.typescript.oxfmt]`). oxfmt picks each file's language by its name, as its command line does.
 * - Under an oxfmt file: the file's options as oxfmt resolves them (its `overrides` by path, the `.editorconfig`
 *   beneath), its own included — `sortImports`, `sortPackageJson`, `sortTailwindcss`, `jsdoc`,
 *   `insertFinalNewline` — so `poly fmt` writes what `oxfmt` writes; its `ignorePatterns` keep files from it.
 * - Without one: `[defaults] line_length` → `printWidth`, `indent_width` → `tabWidth`; `line_ending` and
 *   `final_newline` are applied to the output; `[fmt.<language>.oxfmt]` takes oxfmt's own option names (`semi`,
 *   `singleQuote`, `sortImports`, ... as in `.oxfmtrc.json`); an unknown key is an errored record naming it.
 * - oxfmt formats `.svelte` and `.astro` files only with packages poly does not ship (`svelte`,
 *   `@astrojs/compiler-rs`): not among its languages here.
 * - A syntax error is an errored record at oxfmt's line and column.
 *
 * Example: `const a = {b:1}` under `{ "semi": false }` → `const a = { b: 1 }\n`.
 *
 * @module
 */
import { OXFMT_RELEASE, oxfmtOptionsFor } from "../../config/native/prettier.ts";
import { byteOffsetPosition } from "../fail.ts";
import { finishText } from "../layout.ts";
import { messageOf } from "../module.ts";
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type EngineSpec,
  type Language,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

const VERSION = OXFMT_RELEASE;

/** oxfmt's options of one file (`.oxfmtrc.json`'s keys but `overrides`, `ignorePatterns` and `$schema`). */
const OPTIONS: ReadonlySet<string> = new Set([
  "arrowParens",
  "associations",
  "bracketSameLine",
  "bracketSpacing",
  "embeddedLanguageFormatting",
  "endOfLine",
  "experimentalOperatorPosition",
  "htmlWhitespaceSensitivity",
  "insertFinalNewline",
  "jsdoc",
  "jsxSingleQuote",
  "objectWrap",
  "printWidth",
  "proseWrap",
  "quoteProps",
  "semi",
  "singleAttributePerLine",
  "singleQuote",
  "sortImports",
  "sortPackageJson",
  "sortTailwindcss",
  "tabWidth",
  "trailingComma",
  "useTabs",
  "vueIndentScriptAndStyle",
]);
const UNIFORM = new Set(["enabled", "select", "ignore", "rules"]);

/** The extension that makes oxfmt take a file of `language` whose name it does not know (a YAML file poly knows). */
const EXTENSIONS: Partial<Record<Language, string>> = {
  javascript: ".js",
  typescript: ".ts",
  json: ".json",
  css: ".css",
  graphql: ".graphql",
  markdown: ".md",
  html: ".html",
  vue: ".vue",
  yaml: ".yaml",
  toml: ".toml",
};

/** oxfmt's options for one file's settings: its oxfmt file's, or poly's `[defaults]`; the table's keys on top. */
export function oxfmtOptions(settings: EngineSettings, path: string, language: Language): Record<string, unknown> {
  if (settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
  const d = settings.defaults;
  const options: Record<string, unknown> = settings.native ? oxfmtOptionsFor(settings.native, path) : {
    printWidth: d.line_length,
    tabWidth: d.indent_width ?? 2,
  };
  for (const [key, value] of Object.entries(settings.tool)) {
    if (UNIFORM.has(key)) continue;
    if (!OPTIONS.has(key)) {
      throw new EngineError(
        `unknown setting "${key}" in [fmt.${language}.oxfmt] (oxfmt's own option names, as in .oxfmtrc.json: semi, singleQuote, sortImports, ...)`,
      );
    }
    options[key] = value;
  }
  return options;
}

interface OxfmtResult {
  code: string;
  errors: { message: string; labels: { start: number; end: number }[] }[];
}

/**
 * The oxfmt engine: the languages oxfmt's command line formats, where the repository's oxfmt file governs them
 * (lib/run/plan.ts), or where poly.toml names this formatter.
 */
export const oxfmt: EngineSpec = {
  id: "oxfmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: Object.keys(EXTENSIONS) as Language[],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `oxfmt ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    // Its entry module and its manifest, whose pinned version fixes the rest of its JavaScript (the prettier it
    // embeds) and its 9 MB native module (neither hashed on every start).
    return Promise.resolve([
      import.meta.resolve("oxfmt"),
      new URL("../package.json", import.meta.resolve("oxfmt")).href,
    ]);
  },
  async load(): Promise<EngineInstance> {
    const { format } = await import("oxfmt");
    return {
      async format(file, settings) {
        const options = oxfmtOptions(settings, file.path, file.language);
        const name = file.path.slice(file.path.lastIndexOf("/") + 1);
        let result: OxfmtResult;
        try {
          result = await format(file.path, file.text, options) as OxfmtResult;
          if (result.errors[0]?.message.startsWith("Unsupported file type")) {
            // A name of poly's language oxfmt does not know (`.clang-format` as YAML): formatted as that language.
            result = await format(`${file.path}${EXTENSIONS[file.language] ?? ""}`, file.text, options) as OxfmtResult;
          }
        } catch (e) {
          throw new EngineError(`oxfmt could not format ${name}: ${messageOf(e).split("\n")[0]}`);
        }
        const [first, ...rest] = result.errors;
        if (!first) return settings.native ? result.code : finishText(result.code, file.text, settings.defaults);
        const at = (e: OxfmtResult["errors"][number]) =>
          syntaxDiagnostic("oxfmt", "syntax", e.message, byteOffsetPosition(file.text, e.labels[0]?.start ?? 0));
        if (first.labels.length === 0) throw new EngineError(`oxfmt: ${first.message}`);
        throw new SourceSyntaxError([at(first), ...rest.filter((e) => e.labels.length > 0).map(at)]);
      },
    };
  },
};
