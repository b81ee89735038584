/**
 * Build facts: version, build id and channel. Cheap to import (no engine is
 * loaded), so `poly --version` stays fast.
 *
 * A release build is stamped by `scripts/compile.ts`, which writes `_stamp.ts`
 * before compiling; from source the channel is always "dev".
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { STAMP } from "./_stamp.ts";

/** The program's version (from deno.json). */
export const VERSION: string = denoJson.version;

/** Build id: `git describe` of a stamped build, else "dev". */
export const BUILD_ID: string = STAMP.buildId;

/** "release" only for a stamped build of a tagged version; otherwise "dev". */
export const CHANNEL: "release" | "dev" = STAMP.channel;

/** The line `poly --version` prints. */
export function versionLine(): string {
  return `poly ${VERSION} (build ${BUILD_ID}, channel ${CHANNEL})`;
}
