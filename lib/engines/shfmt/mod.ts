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
 *   `space_redirects` (-sr), `func_next_line` (-fn), `simplify` (-s), `minify` (-mn, which
 *   implies -s), `shell_variant` (-ln: `bash`, `posix`/`sh`, `mksh`, `bats`, `zsh`).
 * - The repository's `.editorconfig` as shfmt reads it (lib/config/native/editorconfig.ts,
 *   `shfmtEditorconfig`) comes beneath those keys, as `editorconfig`: its options for the
 *   dialects `[[shell]]` sections name and for bash, which `[[bash]]` ones add to. Where the
 *   repository's pre-commit hook gives shfmt printer or parser flags (lib/config/native/pre_commit.ts),
 *   they come there instead (`native`), as shfmt reads no `.editorconfig` once one is given.
 * - The dialect follows the file name (`.bash`, `.mksh`, `.bats`), then the shebang, else
 *   bash, as shfmt's; `shell_variant` names it instead. The WebAssembly build parses POSIX
 *   shell as bash (a bash-only construct in a POSIX file is formatted, not refused).
 * - A syntax error is an errored record with shfmt's line and column.
 * - A script with backquotes inside double quotes that hold an escaped double quote (`cd "`dirname \"$PRG\"`/"`,
 *   Gradle's older `gradlew`) is not formatted, saying which line: shfmt would write them as `$( )` with the quotes
 *   still escaped, which changes what the line runs (mvdan/sh#1083; `_backquotes.ts`).
 *
 * Example: `if [ -f x ];then\necho y\nfi` → `if [ -f x ]; then\n\techo y\nfi`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { positioned } from "../fail.ts";
import { freshInstance, packagePart, Renewable, siblingUrls } from "../module.ts";
import { EngineError, type EngineInstance, EngineRefusal, type EngineSettings, type EngineSpec } from "../types.ts";
import { quotedBackquoteEscape } from "./_backquotes.ts";

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

/** The dialects `shell_variant` names, by the file extension that makes the WebAssembly build read them. */
const VARIANTS: Record<string, string> = { bash: "bash", posix: "", sh: "", mksh: "mksh", bats: "bats", zsh: "zsh" };

/** shfmt's shebang test (mvdan/sh `fileutil.Shebang`). */
const SHEBANG = /^#![ \t]*\/(usr\/)?bin\/(env[ \t]+)?(sh|bash|mksh|bats|zsh)(\s|$)/;

/**
 * The dialect shfmt's command line reads `name` in when nothing names one: bash's start-up files are bash, an
 * extension naming a dialect (not `.sh`) says it, then the shebang, else bash.
 */
export function shfmtDialect(name: string, text: string): string {
  const base = name.replace(/^\./, "");
  if (base === "bash_profile" || base === "bashrc" || base === "bash_logout") return "bash";
  const dot = name.lastIndexOf(".");
  const ext = dot >= 0 ? name.slice(dot + 1) : "";
  if (ext !== "sh" && ext in VARIANTS) return ext === "posix" ? "posix" : ext;
  const shebang = SHEBANG.exec(text)?.[3];
  return shebang === undefined ? "bash" : shebang === "sh" ? "posix" : shebang;
}

/** shfmt's options for one file's settings: poly.toml's keys over the `.editorconfig`'s for the file's dialect. */
export function shfmtOptions(
  settings: EngineSettings,
  name = "",
  text = "",
): { options: Record<string, unknown>; variant?: string } {
  const { editorconfig, ...own } = settings.tool as {
    editorconfig?: Record<string, Record<string, unknown>>;
    [key: string]: unknown;
  };
  const dialect = editorconfig ? shfmtDialect(name, text) : "";
  const tool: Record<string, unknown> = {
    ...(editorconfig?.[dialect === "bash" || dialect === "bats" ? "bash" : "shell"] ?? {}),
    // The flags of the repository's pre-commit hook (lib/config/native/pre_commit.ts), in the `.editorconfig`'s place.
    ...(settings.native?.options ?? {}),
    ...own,
  };
  const options: Record<string, unknown> = {};
  const indent = tool.indent ?? settings.defaults.indent_width;
  if (indent !== undefined) options.indent = Number(indent);
  for (const [key, value] of Object.entries(tool)) {
    if (key in FLAGS) {
      if (typeof value !== "boolean") {
        throw new EngineError(`"${key}" must be true or false, got ${JSON.stringify(value)}`);
      }
      options[FLAGS[key]] = value;
    }
  }
  // As shfmt's -mn: minifying simplifies too.
  if (options.minify === true && options.simplify === undefined) options.simplify = true;
  const variant = tool.shell_variant;
  if (variant === undefined) return { options };
  if (typeof variant !== "string" || !(variant in VARIANTS)) {
    throw new EngineError(
      `"shell_variant" must be one of ${Object.keys(VARIANTS).join(", ")}, got ${JSON.stringify(variant)}`,
    );
  }
  return { options, variant: VARIANTS[variant] || undefined };
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
    type Format = (source: string, path: string, options: Record<string, unknown>) => string;
    const shfmt = new Renewable<Format>("shfmt", (await import("@wasm-fmt/shfmt")).format as Format, async () => {
      const entry = import.meta.resolve(PACKAGE);
      const binding = await packagePart<{ format: (wasm: WebAssembly.Exports, ...args: unknown[]) => string }>(
        entry,
        "shfmt_binding.js",
      );
      const wasm = await freshInstance(entry, "shfmt.wasm");
      (wasm._initialize as () => void)();
      return (source, path, options) => binding.format(wasm, source, path, options);
    });
    return {
      async format(file, settings) {
        const base = file.relPath.split("/").pop() ?? file.relPath;
        const { options, variant } = shfmtOptions(settings, base, file.text);
        // The WebAssembly build reads the dialect from the name it is given.
        const name = variant ? `${base}.${variant}` : base;
        let out: string;
        try {
          out = await shfmt.call((format) => format(file.text, name, options));
        } catch (e) {
          throw positioned("shfmt", e, /^[^\n]*?:(\d+):(\d+):/);
        }
        const line = out === file.text ? undefined : quotedBackquoteEscape(file.text);
        if (line !== undefined) {
          throw new EngineRefusal(
            `not formatted: shfmt would change what line ${line} runs, writing its backquoted command as $( ) with ` +
              "the escaped double quotes still escaped, which inside backquotes within double quotes are plain " +
              'quotes (mvdan/sh#1083); write it as $( ) with plain quotes ("$(dirname "$PRG")") and poly formats it',
          );
        }
        return finishText(out, file.text, settings.defaults);
      },
    };
  },
};
