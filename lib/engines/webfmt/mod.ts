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
 *   `script` (Biome: `quoteStyle`, `semicolons`, ...) and `style` (Malva).
 * - A syntax error is an errored record with the line and column of the offset markup_fmt reports.
 *
 * Example: `<div><p>hi</p></div>` → `<div>\n  <p>hi</p>\n</div>`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { byteOffsetPosition } from "../fail.ts";
import { messageOf, siblingUrls } from "../module.ts";
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

/** web_fmt's configuration for one file's settings. */
export function webConfig(settings: EngineSettings): Record<string, unknown> {
  const d = settings.defaults;
  const out: Record<string, unknown> = {
    indentStyle: "space",
    indentWidth: d.indent_width ?? 2,
    lineWidth: d.line_length,
    lineEnding: d.line_ending === "crlf" ? "crlf" : "lf",
  };
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k)) out[k] = v;
  return out;
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
    const mod = await import("@wasm-fmt/web_fmt");
    return {
      format(file, settings) {
        const name = file.relPath.split("/").pop() ?? file.relPath;
        let out: string;
        try {
          out = mod.format_markup(file.text, name, webConfig(settings));
        } catch (e) {
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
        return finishText(out, file.text, settings.defaults);
      },
    };
  },
};
