/**
 * The npm package behind the biome engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as biomeApi from "@biomejs/js-api/nodejs";

export { biomeApi };
