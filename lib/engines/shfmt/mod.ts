/**
 * shfmt — shell script formatting (sh, bash, mksh), in-process (WebAssembly:
 * `@wasm-fmt/shfmt`, mvdan/sh's printer compiled with TinyGo).
 *
 * - Tier: in-process. Languages: shell (format only; linting is `shellcheck`).
 * - `[defaults] indent_width` → shfmt `-i` (unset: tabs, shfmt's default);
 *   `line_ending` and `final_newline` are applied to the output; `line_length`
 *   does not apply (shfmt never wraps).
 * - `[fmt.shell.shfmt]` keys (shfmt's flags): `indent` (0 = tabs; wins over
 *   `[defaults] indent_width`), `binary_next_line` (-bn), `switch_case_indent` (-ci),
 *   `space_redirects` (-sr), `func_next_line` (-fn), `simplify` (-s), `minify` (-mn).
 * - The dialect follows the file name (`.bash`, `.sh`, `.mksh`, `.bats`).
 * - A syntax error is an errored record with shfmt's line and column.
 *
 * Example: `if [ -f x ];then\necho y\nfi` → `if [ -f x ]; then\n\techo y\nfi`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { positioned } from "../fail.ts";
import { siblingUrls } from "../module.ts";
import { EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "../types.ts";

const PACKAGE = "@wasm-fmt/shfmt";
const VERSION = "0.2.7";

const FLAGS: Record<string, string> = {
  binary_next_line: "binaryNextLine",
  switch_case_indent: "switchCaseIndent",
  space_redirects: "spaceRedirects",
  func_next_line: "funcNextLine",
  simplify: "simplify",
  minify: "minify",
};

/** shfmt's options for one file's settings. */
export function shfmtOptions(settings: EngineSettings): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const indent = settings.tool.indent ?? settings.defaults.indent_width;
  if (indent !== undefined) options.indent = Number(indent);
  for (const [key, value] of Object.entries(settings.tool)) {
    if (key in FLAGS) {
      if (typeof value !== "boolean") {
        throw new EngineError(`"${key}" must be true or false, got ${JSON.stringify(value)}`);
      }
      options[FLAGS[key]] = value;
    }
  }
  return options;
}

/** The shfmt engine. */
export const shfmt: EngineSpec = {
  id: "shfmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["shell"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(siblingUrls(import.meta.resolve(PACKAGE), ["shfmt.js", "shfmt_binding.js", "shfmt.wasm"]));
  },
  async load(): Promise<EngineInstance> {
    const mod = await import("@wasm-fmt/shfmt");
    return {
      format(file, settings) {
        const options = shfmtOptions(settings);
        const name = file.relPath.split("/").pop() ?? file.relPath;
        let out: string;
        try {
          out = mod.format(file.text, name, options);
        } catch (e) {
          throw positioned("shfmt", e, /^[^\n]*?:(\d+):(\d+):/);
        }
        return finishText(out, file.text, settings.defaults);
      },
    };
  },
};
