/**
 * The npm package behind the biome engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 * The engine drives biome's WebAssembly workspace directly (not `@biomejs/js-api`'s
 * wrapper), over a memory file system that holds each project's `package.json`.
 *
 * @module
 */
import * as biomeWasm from "@biomejs/wasm-nodejs";

export { biomeWasm };
