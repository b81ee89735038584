/**
 * The npm packages behind the prettier engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as standalone from "prettier/standalone";
import * as yamlPlugin from "prettier/plugins/yaml";

export { standalone, yamlPlugin };
