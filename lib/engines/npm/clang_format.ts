/**
 * The npm package behind the clang_format engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as clangFormat from "@wasm-fmt/clang-format";

export { clangFormat };
