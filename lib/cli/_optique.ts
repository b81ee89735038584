/**
 * The one door to `@optique/*` for the command line: main.ts and every file in
 * `commands/` import the parser combinators from here, never from the package.
 *
 * `run` (help, errors, completion: `@optique/run`, ~50 ms to load) is in
 * `_optique_run.ts`, so `poly lint` and `poly fmt` parse with the core alone (see main.ts).
 *
 * Why a door: `main.ts` loads the command list with a dynamic import, and with
 * `nodeModulesDir: "auto"` Deno re-checks `node_modules` under a file lock for
 * every module of a dynamically loaded graph that names an npm package itself
 * (about 4 ms each). Twenty-odd command files importing `@optique/core/...`
 * directly cost ~0.3 s per start; through this one module they cost one check.
 *
 * @module
 */
export { merge, object, or } from "@optique/core/constructs";
export { commandLine, formatMessage, lineBreak, type Message, message, text } from "@optique/core/message";
export { formatUsage, type Usage } from "@optique/core/usage";
export { map, multiple, optional, withDefault } from "@optique/core/modifiers";
export { argument, command, constant, option } from "@optique/core/primitives";
export { choice, integer, string, type ValueParser } from "@optique/core/valueparser";
export { getDocPage, parse, type Parser, type Suggestion } from "@optique/core/parser";
export { findSimilar } from "@optique/core/suggestion";
