/**
 * `@optique/run`'s `run`: the full command line with help, usage errors and
 * shell completion, with poly's usage-error text (`usage.ts`) and help examples
 * (`examples.ts`). Loaded by main.ts only when a command is not parsed on the
 * fast path (see `_optique.ts`).
 *
 * @module
 */
export { run } from "@optique/run";
export { helpLayout, usageErrorText } from "./usage.ts";
export { EXAMPLES, examplesMessage, TOP_EXAMPLES } from "./examples.ts";
export { colorMode } from "./color.ts";
