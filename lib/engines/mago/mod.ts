/**
 * mago — PHP formatting, in-process (WebAssembly: `@wasm-fmt/mago_fmt`, the Mago
 * toolchain's formatter).
 *
 * - Tier: in-process. Languages: PHP (format only).
 * - The nearest `mago.toml` (or its kin) governs as it governs `mago fmt`
 *   (lib/config/native/mago.ts): its `php-version` and `[formatter]` settings
 *   (`preset` included), Mago's defaults beneath, `[defaults]` not; its output is
 *   the file. Without one, `[defaults] line_length` → `print-width`,
 *   `indent_width` → `tab-width`, `line_ending` → `end-of-line`, and
 *   `final_newline` is applied to the output.
 * - `[fmt.php.mago]` keys on top of either: `php_version` (e.g. "8.3"; default
 *   Mago's latest) and Mago's formatter settings as written in kebab case (e.g.
 *   `single-quote = true`, `use-tabs = true`, `method-chain-breaking-style = "next-line"`).
 * - A syntax error is an errored record with the line and column of the offset
 *   Mago reports.
 *
 * Example: `<?php function a( $b ){ return $b; }` → `<?php\n\nfunction a($b)\n{\n    return $b;\n}`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { byteOffsetPosition } from "../fail.ts";
import { messageOf, siblingUrls } from "../module.ts";
import { governingNative, UNIFORM_KEYS } from "../settings.ts";
import type { MagoOptions } from "../../config/native/mago.ts";
import {
  EngineError,
  type EngineInstance,
  type EngineSettings,
  type EngineSpec,
  SourceSyntaxError,
  syntaxDiagnostic,
} from "../types.ts";

const PACKAGE = "@wasm-fmt/mago_fmt";
const VERSION = "1.44.0";

/** The repository's Mago configuration governing these settings (not another PHP style tool's file), if any. */
function magoFile(settings: EngineSettings): MagoOptions | undefined {
  return governingNative(settings)?.options as unknown as MagoOptions | undefined;
}

/** Mago's settings for one file's settings (without `php_version`). */
export function magoSettings(settings: EngineSettings): Record<string, unknown> {
  const d = settings.defaults;
  const own = magoFile(settings);
  const out: Record<string, unknown> = own ? { ...own.settings } : {
    "print-width": d.line_length,
    "end-of-line": d.line_ending,
    ...(d.indent_width ? { "tab-width": d.indent_width } : {}),
  };
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k) && k !== "php_version") out[k] = v;
  return out;
}

/** The PHP version Mago parses for: poly.toml's `php_version`, else the `mago.toml`'s `php-version`. */
export function magoVersion(settings: EngineSettings): string | undefined {
  const version = settings.tool.php_version;
  return typeof version === "string" ? version : magoFile(settings)?.phpVersion;
}

/** A `<?` that opens PHP only where short open tags are on (not `<?php`, not `<?=`). */
const SHORT_TAG = /<\?(?!php\b|=)/i;

/** The mago engine. */
export const mago: EngineSpec = {
  id: "mago",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["php"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(
      siblingUrls(import.meta.resolve(PACKAGE), ["mago_fmt.js", "mago_fmt_bg.js", "mago_fmt_bg.wasm"]),
    );
  },
  async load(): Promise<EngineInstance> {
    const mod = await import("@wasm-fmt/mago_fmt");
    return {
      format(file, settings) {
        const name = file.relPath.split("/").pop() ?? "main.php";
        const version = magoVersion(settings);
        const own = magoFile(settings);
        if (own?.noShortTags && SHORT_TAG.test(file.text)) {
          throw new EngineError(
            "cannot be honoured: the mago configuration sets [parser] enable-short-tags = false, which poly's Mago " +
              "build cannot (it reads every `<?` as an opening tag), and this file has a `<?` other than `<?php`",
          );
        }
        let out: string;
        try {
          out = version !== undefined
            ? mod.format_with_version(file.text, version, name, magoSettings(settings))
            : mod.format(file.text, name, magoSettings(settings));
        } catch (e) {
          const message = messageOf(e);
          const offset = /offset: (\d+)/.exec(message);
          const kind = /^(\w+)/.exec(message)?.[1] ?? "error";
          if (offset) {
            const { line, column } = byteOffsetPosition(file.text, Number(offset[1]));
            const title = kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
            throw new SourceSyntaxError([syntaxDiagnostic("mago", "syntax", title, { line, column })]);
          }
          throw new EngineError(own ? `${message} (under the mago configuration's [formatter] settings)` : message);
        }
        // Under the repository's mago.toml, Mago's output is the file (its line endings, its final newline).
        return own ? out : finishText(out, file.text, settings.defaults);
      },
    };
  },
};
