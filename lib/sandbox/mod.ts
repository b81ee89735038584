/**
 * The bubblewrap sandbox shared by the fleet's engines and the gateway's stdio
 * upstreams: one pure argument builder ({@link bwrapArgs}) and the disk probes a
 * plan needs. docs/fleet.md and docs/gateway.md say what each sandbox shows.
 *
 * @module
 */
export {
  type Bind,
  bwrapArgs,
  exposedHomes,
  isUnder,
  type SandboxSpec,
  type SystemEntry,
  workspaceHoldsHome,
} from "./bwrap.ts";
export { findExecutable } from "../fs/executable.ts";
export {
  binaryDirsFor,
  exists,
  PASSTHROUGH_ENV,
  polyHomes,
  probeSystem,
  SYSTEM_PATHS,
  systemEntries,
} from "./probe.ts";
