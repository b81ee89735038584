/**
 * Reads the `[fleet]` section of the poly.toml governing a directory.
 *
 * @module
 */
import type { FleetSectionValue } from "./config.ts";

/** The `[fleet]` section governing `dir` and the directory of the file it came from. */
export async function loadFleetSection(dir: string): Promise<{ section?: FleetSectionValue; dir: string }> {
  const { openConfig } = await import("../config/mod.ts");
  const set = await openConfig({ cwd: dir });
  const resolved = await set.forDir(dir);
  return { section: resolved.data.fleet as FleetSectionValue | undefined, dir: resolved.dir };
}
