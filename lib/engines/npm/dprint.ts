/**
 * The npm packages behind the dprint engine, as one local module the engine
 * loads through `lib/lazy/mod.ts` on first use (see there: a string-literal
 * `import()` would make `deno run` walk and re-verify the package at every start).
 *
 * @module
 */
import * as toml from "@dprint/toml";
import * as markdown from "@dprint/markdown";
import * as dockerfile from "@dprint/dockerfile";
import * as formatter from "@dprint/formatter";

export { dockerfile, formatter, markdown, toml };
