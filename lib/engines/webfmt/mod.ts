/**
 * webfmt — HTML, Vue, Svelte and Astro formatting, in-process (WebAssembly:
 * `@wasm-fmt/web_fmt`: markup_fmt for markup, Biome for embedded scripts, Malva
 * for embedded styles).
 *
 * - Tier: in-process. Languages: HTML, Vue, Svelte, Astro (format only); the
 *   `<script>` and `<style>` blocks inside them are formatted too.
 * - `[defaults] line_length` → `lineWidth`, `indent_width` → `indentWidth`
 *   (default 2, spaces), `line_ending` → `lineEnding`; `final_newline` is applied.
 * - `[fmt.<html|vue|svelte|astro>.webfmt]` keys are web_fmt's configuration, passed as
 *   written: layout keys (`indentStyle`), and the sub-tables `markup` (markup_fmt:
 *   `quotes`, `closingBracketSameLine`, `whitespaceSensitivity`, `vBindStyle`, ...),
 *   `script` (Biome: `quoteStyle`, `semicolons`, ...) and `style` (Malva); any other
 *   top-level key is markup_fmt's.
 * - HTML and Vue under a repository's prettier or oxfmt options take those instead of
 *   `[defaults]`, as prettier formats those languages ({@link styleConfig}).
 * - A syntax error is an errored record with the line and column of the offset markup_fmt reports.
 *
 * Example: `<div><p>hi</p></div>` → `<div>\n  <p>hi</p>\n</div>`.
 *
 * @module
 */
import { styleDefaults, styleLayout, styleOptionsFor } from "../../config/native/prettier.ts";
import { finishText } from "../layout.ts";
import { byteOffsetPosition } from "../fail.ts";
import { freshBindgen, messageOf, Renewable, siblingUrls } from "../module.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type EngineSpec,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

const PACKAGE = "@wasm-fmt/web_fmt";
const VERSION = "0.2.9";

/** web_fmt's layout keys (the rest of a tool table's top level is markup_fmt's). */
const LAYOUT = new Set(["indentStyle", "indentWidth", "lineWidth", "lineEnding"]);
/** web_fmt's sub-tables, one per formatter it runs. */
const SECTIONS = new Set(["markup", "script", "style", "json", "graphql"]);

type Table = Record<string, unknown>;

/**
 * web_fmt's configuration for one file: poly's `[defaults]`, or the repository's prettier/oxfmt options for the file
 * where they govern ({@link styleConfig}); then the tool table's keys (layout keys at the top, the sub-tables
 * merged, any other key markup_fmt's).
 */
export function webConfig(settings: EngineSettings, path = "", language = "html"): Table {
  const d = settings.defaults;
  if (settings.native?.unmapped) throw new EngineError(settings.native.unmapped);
  const out: Table = settings.native ? styleConfig(styleOptionsFor(settings.native, path), language) : {
    indentStyle: "space",
    indentWidth: d.indent_width ?? 2,
    lineWidth: d.line_length,
    lineEnding: d.line_ending === "crlf" ? "crlf" : "lf",
  };
  for (const [k, v] of Object.entries(settings.tool)) {
    if (UNIFORM_KEYS.has(k)) continue;
    if (LAYOUT.has(k)) out[k] = v;
    else if (SECTIONS.has(k) && v && typeof v === "object") out[k] = { ...(out[k] as Table ?? {}), ...(v as Table) };
    else out.markup = { ...(out.markup as Table ?? {}), [k]: v };
  }
  return out;
}

/**
 * prettier's options for one HTML or Vue file as web_fmt's: the layout; markup_fmt's script and style indentation
 * (prettier indents both in HTML, in Vue by `vueIndentScriptAndStyle`), `bracketSameLine`,
 * `htmlWhitespaceSensitivity`, `singleAttributePerLine` and `<!-- prettier-ignore -->`; Biome's options for the
 * scripts (as `biome migrate prettier` maps them); Malva's quotes for the styles.
 */
export function styleConfig(options: Table, language: string): Table {
  const layout = styleLayout(options);
  const pick = <T>(map: Record<string, T>, v: unknown): T | undefined => typeof v === "string" ? map[v] : undefined;
  const defined = (t: Table) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
  const indent = language === "vue" ? options.vueIndentScriptAndStyle === true : true;
  return {
    indentStyle: layout.useTabs ? "tab" : "space",
    indentWidth: layout.tabWidth,
    lineWidth: layout.printWidth,
    lineEnding: layout.lineEnding === "crlf" ? "crlf" : "lf",
    markup: defined({
      [`${language}.scriptIndent`]: indent,
      [`${language}.styleIndent`]: indent,
      closingBracketSameLine: options.bracketSameLine === true,
      whitespaceSensitivity: pick(
        { css: "css", strict: "strict", ignore: "ignore" },
        options.htmlWhitespaceSensitivity,
      ),
      maxAttrsPerLine: options.singleAttributePerLine === true ? 1 : undefined,
      // prettier breaks a tag whose one attribute does not fit, closes an empty element after its broken start tag
      // (`></div>`), and prints `<!doctype html>` in lower case.
      singleAttrSameLine: false,
      closingTagLineBreakForEmpty: "never",
      doctypeKeywordCase: "lower",
      ignoreCommentDirective: "prettier-ignore",
    }),
    script: defined({
      semicolons: options.semi === false ? "as-needed" : "always",
      quoteStyle: options.singleQuote === true ? "single" : "double",
      jsxQuoteStyle: options.jsxSingleQuote === true ? "single" : "double",
      quoteProperties: pick({ "as-needed": "as-needed", preserve: "preserve" }, options.quoteProps),
      trailingComma: pick({ all: "all", es5: "es5", none: "none" }, options.trailingComma),
      arrowParentheses: pick({ always: "always", avoid: "as-needed" }, options.arrowParens),
      bracketSpacing: options.bracketSpacing === false ? false : undefined,
      bracketSameLine: options.bracketSameLine === true ? true : undefined,
      attributePosition: options.singleAttributePerLine === true ? "multiline" : undefined,
      expand: pick({ preserve: "auto", collapse: "never" }, options.objectWrap),
    }),
    style: {
      quotes: options.singleQuote === true ? "preferSingle" : "preferDouble",
      ignoreCommentDirective: "prettier-ignore",
    },
  };
}

/** The webfmt engine. */
export const webfmt: EngineSpec = {
  id: "webfmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["html", "vue", "svelte", "astro"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(
      siblingUrls(import.meta.resolve(PACKAGE), ["web_fmt.js", "web_fmt_bg.js", "web_fmt_bg.wasm"]),
    );
  },
  async load(): Promise<EngineInstance> {
    type Web = typeof import("@wasm-fmt/web_fmt");
    const web = new Renewable<Web>(
      "webfmt",
      await import("@wasm-fmt/web_fmt"),
      () => freshBindgen<Web>(import.meta.resolve(PACKAGE), "web_fmt_bg.js", "web_fmt_bg.wasm"),
    );
    return {
      async format(file, settings) {
        const name = file.relPath.split("/").pop() ?? file.relPath;
        let out: string;
        try {
          const config = webConfig(settings, file.path, file.language);
          out = await web.call((mod) => mod.format(file.text, name, config));
        } catch (e) {
          if (e instanceof EngineError) throw e;
          const message = messageOf(e);
          const offset = /pos: (\d+)/.exec(message);
          const kind = /kind: (\w+)/.exec(message)?.[1];
          const what = kind ? kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : message.split("\n")[0];
          if (offset) {
            const { line, column } = byteOffsetPosition(file.text, Number(offset[1]));
            throw new SourceSyntaxError([syntaxDiagnostic("webfmt", "syntax", what, { line, column })]);
          }
          throw new EngineError(what);
        }
        return finishText(
          out,
          file.text,
          settings.native ? styleDefaults(settings.defaults, settings.native, file.path) : settings.defaults,
        );
      },
    };
  },
};
