/**
 * gofmt — Go formatting, in-process (WebAssembly: `@wasm-fmt/gofmt`, the Go
 * standard library's printer compiled with TinyGo).
 *
 * - Tier: in-process. Languages: Go (format only; linting is `govet`).
 * - gofmt has no options: tabs for indentation, no line length. poly applies
 *   `[defaults] line_ending` and `final_newline` to its output; `line_length` and
 *   `indent_width` do not apply. `[fmt.go.gofmt]` has no engine-specific keys.
 * - A syntax error is an errored record with gofmt's line and column.
 *
 * Example: `func main(){x:=1}` → `func main() {\n\tx := 1\n}`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { positioned } from "../fail.ts";
import { freshInstance, packagePart, Renewable, siblingUrls } from "../module.ts";
import type { EngineInstance, EngineSpec } from "../types.ts";

const PACKAGE = "@wasm-fmt/gofmt";
const VERSION = "0.7.3";

/** The package's glue: `format(wasm, source)` on an instance's exports. */
interface Binding {
  format(wasm: WebAssembly.Exports, source: string): string;
}

/** The gofmt engine. */
export const gofmt: EngineSpec = {
  id: "gofmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["go"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(siblingUrls(import.meta.resolve(PACKAGE), ["gofmt.js", "gofmt_binding.js", "gofmt.wasm"]));
  },
  async load(): Promise<EngineInstance> {
    const gofmt = new Renewable("gofmt", (await import("@wasm-fmt/gofmt")).format, async () => {
      const entry = import.meta.resolve(PACKAGE);
      const binding = await packagePart<Binding>(entry, "gofmt_binding.js");
      const wasm = await freshInstance(entry, "gofmt.wasm");
      (wasm._initialize as () => void)();
      return (source: string) => binding.format(wasm, source);
    });
    return {
      async format(file, settings) {
        let out: string;
        try {
          out = await gofmt.call((format) => format(file.text));
        } catch (e) {
          throw positioned("gofmt", e, /^(\d+):(\d+):/);
        }
        return finishText(out, file.text, settings.defaults);
      },
    };
  },
};
