/**
 * `@optique/run`'s `run`: the full command line with help, usage errors and
 * shell completion. Loaded by main.ts only when a command is not parsed on the
 * fast path (see `_optique.ts`).
 *
 * @module
 */
export { run } from "@optique/run";
