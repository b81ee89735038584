/**
 * The dashboard's tabs, in order (the number keys follow it). Adding a pane is
 * one file exporting a {@link Pane} and one entry here.
 *
 * @module
 */
import { cachePane } from "./cache.ts";
import { callsPane } from "./calls.ts";
import { gatewayPane } from "./gateway.ts";
import { accessPane } from "./access.ts";
import { overviewPane } from "./overview.ts";
import { ratingsPane } from "./ratings.ts";
import { sessionsPane } from "./sessions.ts";
import type { Pane } from "./types.ts";

export type { Layout, Pane, PaneAction, PaneProps, PreparedAction } from "./types.ts";
export { positions, windowOf } from "./types.ts";

/** Every pane, in tab order. */
export const PANES: readonly Pane[] = [
  overviewPane,
  cachePane,
  sessionsPane,
  ratingsPane,
  callsPane,
  gatewayPane,
  accessPane,
];
