/**
 * prettier — in-process (`prettier/standalone` with the plugins prettier ships, each loaded on first use).
 *
 * - Tier: in-process (JavaScript). Languages: YAML by default (format only; linting is `yaml`); JavaScript,
 *   TypeScript, JSON, CSS, GraphQL, Markdown, HTML and Vue where the repository's prettier file governs them (its
 *   formatter formats its files; lib/run/plan.ts says when; an oxfmt file too where oxfmt is disabled), or where
 *   poly.toml names this formatter (`[fmt.typescript.prettier]`). prettier picks each file's parser by its name, as its command line does.
 * - `[defaults] line_length` → `printWidth`, `indent_width` → `tabWidth` (default 2),
 *   `line_ending` → `endOfLine`; `final_newline` is applied to the output.
 * - `[fmt.<language>.prettier]` keys: `single_quote` (`singleQuote`), `bracket_spacing`
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
import { PRETTIER_RELEASE, styleOptionsFor, stylePlugins } from "../../config/native/prettier.ts";
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

const VERSION = PRETTIER_RELEASE;

const KEYS: Record<string, string> = {
  single_quote: "singleQuote",
  singleQuote: "singleQuote",
  bracket_spacing: "bracketSpacing",
  bracketSpacing: "bracketSpacing",
  prose_wrap: "proseWrap",
  proseWrap: "proseWrap",
};
const UNIFORM = new Set(["enabled", "select", "ignore", "rules"]);

/** The languages prettier formats with the plugins it ships, and the plugins each needs. */
const PLUGINS: Partial<Record<Language, readonly string[]>> = {
  yaml: ["yaml"],
  javascript: ["babel", "estree"],
  typescript: ["typescript", "estree"],
  json: ["babel", "estree"],
  css: ["postcss"],
  graphql: ["graphql"],
  markdown: ["markdown", "babel", "estree", "typescript", "postcss", "yaml", "graphql", "html"],
  html: ["html", "babel", "estree", "typescript", "postcss"],
  vue: ["html", "babel", "estree", "typescript", "postcss"],
};

/** The parser for a file whose name prettier cannot infer one from (a script without an extension). */
const PARSERS: Partial<Record<Language, string>> = {
  yaml: "yaml",
  javascript: "babel",
  typescript: "typescript",
  json: "json",
  css: "css",
  graphql: "graphql",
  markdown: "markdown",
  html: "html",
  vue: "vue",
};

/** Each plugin module, loaded on first use (a YAML-only run loads the YAML plugin alone). */
function loadPlugin(name: string): Promise<unknown> {
  switch (name) {
    case "yaml":
      return import("prettier/plugins/yaml");
    case "babel":
      return import("prettier/plugins/babel");
    case "estree":
      return import("prettier/plugins/estree");
    case "typescript":
      return import("prettier/plugins/typescript");
    case "postcss":
      return import("prettier/plugins/postcss");
    case "graphql":
      return import("prettier/plugins/graphql");
    case "markdown":
      return import("prettier/plugins/markdown");
    case "html":
      return import("prettier/plugins/html");
    default:
      throw new EngineError(`prettier has no plugin "${name}" in poly`);
  }
}

/**
 * prettier's options for one file's settings (`path`: the file, whose path picks a native configuration's overrides
 * and prettier's parser; `language`: the parser where the name tells none).
 */
export function prettierOptions(
  settings: EngineSettings,
  path = "",
  language: Language = "yaml",
): Record<string, unknown> {
  const d = settings.defaults;
  const name = path.slice(path.lastIndexOf("/") + 1);
  // YAML keeps prettier's YAML parser whatever the name (poly's YAML includes names prettier does not know);
  // elsewhere prettier picks by the name as its command line does (`package.json` → json-stringify).
  const parser = language === "yaml" || !name.includes(".") ? { parser: PARSERS[language] ?? "yaml" } : {};
  if (settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
  if (settings.native) {
    const { unknown } = stylePlugins(settings.native.options);
    if (unknown.length > 0) {
      const file = settings.native.files[0]?.path ?? "";
      throw new EngineError(
        `prettier plugin ${unknown.map((p) => `"${p}"`).join(", ")} (in ${
          file.slice(file.lastIndexOf("/") + 1)
        }) is not one poly runs, and its output cannot be told without it: set [tools.prettier] native_config = false to format with poly's own formatters`,
      );
    }
  }
  const options: Record<string, unknown> = settings.native
    ? { ...styleOptionsFor(settings.native, path), ...parser, filepath: path }
    : {
      ...parser,
      filepath: path,
      printWidth: d.line_length,
      tabWidth: d.indent_width ?? 2,
      endOfLine: d.line_ending,
    };
  for (const [key, value] of Object.entries(settings.tool)) {
    if (UNIFORM.has(key)) continue;
    const option = KEYS[key];
    if (!option) {
      throw new EngineError(
        `unknown setting "${key}" in [fmt.${language}.prettier] (known: single_quote, bracket_spacing, prose_wrap)`,
      );
    }
    options[option] = value;
  }
  return options;
}

/**
 * The prettier engine: YAML always; JavaScript, TypeScript, JSON, CSS, GraphQL, Markdown, HTML and Vue where the
 * repository's prettier or oxfmt file governs them (lib/run/plan.ts), or where poly.toml names this formatter.
 */
export const prettier: EngineSpec = {
  id: "prettier",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: Object.keys(PLUGINS) as Language[],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `prettier ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    const plugins = [...new Set(Object.values(PLUGINS).flat())];
    return Promise.resolve([
      import.meta.resolve("prettier/standalone"),
      ...plugins.map((p) => import.meta.resolve(`prettier/plugins/${p}`)),
    ]);
  },
  async load(): Promise<EngineInstance> {
    const core = await import("prettier/standalone");
    const loaded = new Map<string, Promise<unknown>>();
    const plugin = (name: string) => {
      let found = loaded.get(name);
      if (!found) loaded.set(name, found = loadPlugin(name));
      return found;
    };
    return {
      async format(file, settings) {
        const names = PLUGINS[file.language];
        if (!names) throw new EngineError(`prettier does not format ${file.language} in poly`);
        const options = prettierOptions(settings, file.path, file.language);
        const plugins = await Promise.all(names.map(plugin));
        let out: string;
        try {
          out = await core.format(file.text, { ...options, plugins: plugins as never[] });
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
