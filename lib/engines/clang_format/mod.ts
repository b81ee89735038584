/**
 * clang-format — C, C++, Java and Protobuf formatting, in-process (WebAssembly:
 * `@wasm-fmt/clang-format`, LLVM's clang-format 23).
 *
 * - Tier: in-process. Languages: C, C++, Java, Protobuf (format only).
 * - `[defaults] line_length` → `ColumnLimit`, `indent_width` → `IndentWidth`,
 *   `line_ending` → `LineEnding`; `final_newline` is applied to the output.
 * - `[fmt.<c|cpp|java|protobuf>.clang-format]` keys: `style` — a base style
 *   ("LLVM" by default, clang-format's own default; "Google", "Chromium", "Mozilla",
 *   "WebKit", "Microsoft", "GNU") or a whole `.clang-format` document as a string;
 *   every other key is a clang-format option as written in `.clang-format`
 *   (e.g. `AllowShortFunctionsOnASingleLine = "None"`, `BraceWrapping = { AfterFunction = true }`).
 * - The nearest `.clang-format` / `_clang-format` (lib/config/native/host.ts)
 *   governs: its documents are the style (`BasedOnStyle`, `DisableFormat`,
 *   per-`Language` documents), clang-format's defaults fill the rest and
 *   `[defaults]` do not apply; poly.toml's option keys apply on top (a `style`
 *   key replaces the file).
 * - The language follows the file name (`.c`, `.h`, `.cc`, `.cpp`, `.hpp`, `.java`, `.proto`).
 * - clang-format has no parser errors: it formats whatever tokens it is given, so
 *   broken code comes back reformatted rather than as an errored record. An invalid
 *   style is an errored record.
 *
 * Example: `int main(){return 0;}` → `int main() { return 0; }`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { messageOf, siblingUrls } from "../module.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "../types.ts";

const PACKAGE = "@wasm-fmt/clang-format";
const VERSION = "23.1.0";

/** The `--style` value for one file's settings. */
export function clangStyle(settings: EngineSettings): string {
  const styles = settings.native?.options.styles as Record<string, unknown>[] | undefined;
  if (styles && typeof settings.tool.style !== "string") {
    // The repository's .clang-format governs whole (clang-format's defaults fill the rest, not [defaults]);
    // poly.toml's option keys apply on top, in each of its documents.
    const own = Object.entries(settings.tool).filter(([k]) => !UNIFORM_KEYS.has(k) && k !== "style");
    const docs = styles.length > 0 ? styles : [{}];
    return docs.map((doc) => JSON.stringify({ ...doc, ...Object.fromEntries(own) })).join("\n---\n");
  }
  const base = typeof settings.tool.style === "string" ? settings.tool.style : "LLVM";
  if (base.trim().startsWith("{") || base.includes("\n")) return base;
  const d = settings.defaults;
  const options: Record<string, unknown> = { BasedOnStyle: base, ColumnLimit: d.line_length };
  if (d.indent_width) options.IndentWidth = d.indent_width;
  options.LineEnding = d.line_ending === "crlf" ? "CRLF" : d.line_ending === "auto" ? "DeriveLF" : "LF";
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k) && k !== "style") options[k] = v;
  return "{" + Object.entries(options).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ") + "}";
}

/** The clang-format engine. */
export const clangFormat: EngineSpec = {
  id: "clang-format",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["c", "cpp", "java", "protobuf"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    const entry = import.meta.resolve(PACKAGE);
    return Promise.resolve(siblingUrls(entry, ["clang-format.js", "clang-format-binding.js", "clang-format.wasm"]));
  },
  async load(): Promise<EngineInstance> {
    const mod = await import("@wasm-fmt/clang-format");
    return {
      format(file, settings) {
        const style = clangStyle(settings);
        const name = file.relPath.split("/").pop() ?? file.relPath;
        let out: string;
        try {
          out = mod.format(file.text, name, style);
        } catch (e) {
          const message = messageOf(e).split("\n")[0];
          const from = settings.native?.files.at(-1)?.path;
          if (from && /Unsuitable/.test(message)) {
            // As clang-format says it: no document of the repository's file is for this language.
            throw new EngineError(
              `"${from}" has no style for this language (its documents name other Language values)`,
            );
          }
          throw new EngineError(`${message} (style ${from ? `from "${from}"` : style})`);
        }
        // Under the repository's .clang-format its output stands as it is (`LineEnding` and all).
        return settings.native?.options.styles && typeof settings.tool.style !== "string"
          ? out
          : finishText(out, file.text, settings.defaults);
      },
    };
  },
};
