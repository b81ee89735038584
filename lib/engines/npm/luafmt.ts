/**
 * The npm package behind the luafmt engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as luaFmt from "@wasm-fmt/lua_fmt";

export { luaFmt };
