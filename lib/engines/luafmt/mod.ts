/**
 * luafmt — Lua formatting, in-process (WebAssembly: `@wasm-fmt/lua_fmt`, StyLua).
 *
 * - Tier: in-process. Languages: Lua (format only).
 * - The nearest `stylua.toml` (or `.stylua.toml`) governs as it governs StyLua
 *   (lib/config/native/host.ts); without one, `[defaults] line_length` → `line_width`,
 *   `indent_width` → `indent_width`, `line_ending` → `line_ending`, `final_newline`
 *   applied to the output, and the `.editorconfig` as StyLua reads it over them.
 * - `[fmt.lua.luafmt]` keys are StyLua's options in snake case, passed as written:
 *   `indent_style` ("tab" | "space"; StyLua's default is tabs), `quote_style`,
 *   `call_parentheses`, `collapse_simple_statement`, `space_after_function_names`,
 *   `sort_requires`, ...
 * - A syntax error is an errored record with StyLua's line and column.
 *
 * Example: `local x=1 function f() return x end` → `local x = 1\nfunction f()\n\treturn x\nend`.
 *
 * @module
 */
import { finishText } from "../layout.ts";
import { positioned } from "../fail.ts";
import { freshBindgen, Renewable, siblingUrls } from "../module.ts";
import { governingNative, UNIFORM_KEYS } from "../settings.ts";
import { EngineCrash, EngineError, type EngineInstance, type EngineSettings, type EngineSpec } from "../types.ts";

const PACKAGE = "@wasm-fmt/lua_fmt";
const VERSION = "0.3.3";

/**
 * StyLua's options for one file's settings: under the repository's `stylua.toml` (`native`), its options and
 * StyLua's defaults; otherwise poly's `[defaults]` (with the `.editorconfig` StyLua reads already laid over them, in
 * lib/run/plan.ts); poly.toml's `[fmt.lua.luafmt]` keys on top of either.
 */
export function luaOptions(settings: EngineSettings): Record<string, unknown> {
  const d = settings.defaults;
  const out: Record<string, unknown> = governingNative(settings) ? { ...settings.native!.options } : {
    line_width: d.line_length,
    line_ending: d.line_ending === "crlf" ? "crlf" : "lf",
    ...(d.indent_width ? { indent_width: d.indent_width } : {}),
  };
  for (const [k, v] of Object.entries(settings.tool)) if (!UNIFORM_KEYS.has(k)) out[k] = v;
  return out;
}

/** A LuaJIT number literal Lua 5.1 to 5.4 lack: `1LL`, `0x10ULL`, `12i`. */
const LUAJIT_LITERAL = /\b(?:0[xX][0-9a-fA-F]+|\d+)(?:[uU]?[lL][lL]|[iI])\b/;

/** The luafmt engine. */
export const luafmt: EngineSpec = {
  id: "luafmt",
  tier: "in-process",
  lintLanguages: [],
  formatLanguages: ["lua"],
  capabilities: { lint: false, format: true, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return Promise.resolve(
      siblingUrls(import.meta.resolve(PACKAGE), ["lua_fmt.js", "lua_fmt_bg.js", "lua_fmt_bg.wasm"]),
    );
  },
  async load(): Promise<EngineInstance> {
    type Lua = typeof import("@wasm-fmt/lua_fmt");
    const lua = new Renewable<Lua>(
      "luafmt",
      await import("@wasm-fmt/lua_fmt"),
      () => freshBindgen<Lua>(import.meta.resolve(PACKAGE), "lua_fmt_bg.js", "lua_fmt_bg.wasm"),
    );
    return {
      async format(file, settings) {
        let out: string;
        const options = luaOptions(settings);
        try {
          out = await lua.call((mod) => mod.format(file.text, options));
        } catch (e) {
          if (options.syntax === "LuaJIT" && LUAJIT_LITERAL.test(file.text) && !(e instanceof EngineCrash)) {
            // StyLua's LuaJIT syntax takes them; the build, parsing Lua 5.1 to 5.4, does not: not the file's error.
            throw new EngineError(
              "poly's StyLua build cannot parse LuaJIT's 64-bit and imaginary number literals (1LL, 1ULL, 1i), " +
                'which StyLua reads under syntax = "LuaJIT"',
            );
          }
          if (e instanceof EngineCrash && e.detail === "unreachable") {
            // The build traps on some syntax it has no parser for (Luau's interpolated strings).
            throw new EngineCrash(
              e.engine,
              `${e.detail}: StyLua's WebAssembly build stops so on a construct it cannot parse, such as Luau syntax`,
              e.repeated,
            );
          }
          throw positioned("luafmt", e, /\((\d+):(\d+) to \d+:\d+\)/);
        }
        // Under the repository's stylua.toml, StyLua's output is the file (its line endings, its final newline).
        return governingNative(settings) ? out : finishText(out, file.text, settings.defaults);
      },
    };
  },
};
