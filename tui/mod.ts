/**
 * `poly dash`: the terminal dashboard over the state database (sessions,
 * ratings, calls, upstream servers and grants) and the result caches. The
 * public door of `tui/`.
 *
 * @example
 * ```ts
 * import { runDash } from "./tui/mod.ts";
 * const code = await runDash({ once: true, intervalMs: 1500, io });
 * ```
 *
 * @module
 */
export { type DashOptions, NO_TERMINAL, runDash } from "./run.tsx";
export { renderOnce } from "./once.ts";
export { createLoader, type LoaderOptions, type SnapshotLoader } from "./data/snapshot.ts";
export { type Clock, fixedClock, systemClock } from "./clock.ts";
export { PANES } from "./panes/mod.ts";
export type { Pane, PaneProps } from "./panes/mod.ts";
