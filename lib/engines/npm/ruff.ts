/**
 * The npm package behind the ruff engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as ruff from "@astral-sh/ruff-wasm-nodejs";

export { ruff };
