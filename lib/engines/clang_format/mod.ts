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
 * - A crash of the WebAssembly build (its memory out of bounds on deeply nested code, an
 *   abort when LLVM runs out of its 2 GiB) is the file's error alone: the next call gets
 *   a new instance, and the file is tried once more in it (`againOnCrash`). A style whose
 *   every document sets `DisableFormat` gives the text back without the module.
 *
 * Example: `int main(){return 0;}` → `int main() { return 0; }`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { messageOf, packagePart, Renewable, siblingUrls } from "../module.ts";
import { UNIFORM_KEYS } from "../settings.ts";
import { CLANG_FORMAT_RELEASE } from "../../config/native/host.ts";
import { EngineCrash, EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "../types.ts";

const PACKAGE = "@wasm-fmt/clang-format";
const VERSION = CLANG_FORMAT_RELEASE;

/** A crash's detail when the module aborted. */
const ABORTED = "it aborted, as LLVM's WebAssembly build does when its memory runs out (a file of some hundreds of " +
  "kilobytes can need more than its 2 GiB)";

/**
 * The name clang-format is given for a file: a `.h` header is C++ to clang-format, but where the repository's
 * `.clang-format` has a `Language: C` document and none for C++ (nor one without a `Language`), clang-format's command
 * line (21 and later) formats the header with the C document; the module, given the style inline, does so for a `.c`
 * name.
 */
export function cHeaderAsC(name: string, settings: EngineSettings): string {
  const styles = settings.native?.options.styles as Record<string, unknown>[] | undefined;
  if (!name.endsWith(".h") || !styles || typeof settings.tool.style === "string") return name;
  const languages = styles.map((doc) => doc.Language ?? "Cpp");
  return languages.includes("C") && !languages.includes("Cpp") ? `${name.slice(0, -2)}.c` : name;
}

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

/**
 * Whether every document of the file's style turns formatting off (`DisableFormat: true`; poly.toml's key, which
 * applies in each document, decides alone). A style given as one document's text is not read here.
 */
export function formatDisabled(settings: EngineSettings): boolean {
  if ("DisableFormat" in settings.tool) return settings.tool.DisableFormat === true;
  const styles = settings.native?.options.styles as Record<string, unknown>[] | undefined;
  if (!styles || typeof settings.tool.style === "string") return false;
  return styles.length > 0 && styles.every((doc) => doc.DisableFormat === true);
}

/**
 * A new instance of the WebAssembly module, its glue given the module's bytes again: the package's own parts
 * (`createModule`, and the binding whose `set_wasm` the package's entry calls once), beside that entry.
 */
async function fresh(): Promise<(text: string, name: string, style: string) => string> {
  const entry = import.meta.resolve(PACKAGE);
  const { createModule } = await packagePart<{ createModule(options: { wasm: Uint8Array }): unknown }>(
    entry,
    "clang-format.js",
  );
  const binding = await packagePart<{
    set_wasm(wasm: unknown): void;
    format(text: string, name: string, style: string): string;
  }>(entry, "clang-format-binding.js");
  const wasm = await Deno.readFile(new URL("clang-format.wasm", entry));
  binding.set_wasm(await forwardingErrors(() => createModule({ wasm })));
  return binding.format;
}

/**
 * `make()`, which instantiates the module: its glue binds `console.error` once, there, for what the module prints
 * (emscripten's "Aborted()"; the package's command line also prints LLVM's "LLVM ERROR: out of memory", this build
 * does not). Bound to a function that passes each line to
 * whatever `console.error` is when it is printed, the lines reach the collector of `wasmCall` (lib/engines/module.ts)
 * during a call rather than poly's output.
 */
async function forwardingErrors<T>(make: () => T | Promise<T>): Promise<T> {
  const original = console.error;
  const forward = (...args: unknown[]) => (console.error === forward ? original : console.error)(...args);
  console.error = forward;
  try {
    return await make();
  } finally {
    console.error = original;
  }
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
    type Format = (text: string, name: string, style: string) => string;
    const clang = new Renewable<Format>(
      "clang-format",
      (await forwardingErrors(() => import("@wasm-fmt/clang-format"))).format,
      fresh,
    );
    return {
      async format(file, settings) {
        // Every document turns formatting off: clang-format gives the text back as it is (include order and all)
        // without reading it, which a file too large for the WebAssembly module's memory needs.
        if (formatDisabled(settings)) return file.text;
        const style = clangStyle(settings);
        const name = cHeaderAsC(file.relPath.split("/").pop() ?? file.relPath, settings);
        let out: string;
        try {
          out = await clang.call((format) => format(file.text, name, style));
        } catch (e) {
          if (e instanceof EngineCrash) {
            // emscripten's abort says nothing more ("Aborted(). Build with -sASSERTIONS ..."): LLVM's WebAssembly
            // build aborts so when its memory runs out, as its command line says ("LLVM ERROR: out of memory").
            throw /^Aborted\(\)/.test(e.detail) ? new EngineCrash(e.engine, ABORTED, e.repeated) : e;
          }
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
