/**
 * What the run tests share: a repository of files in a temporary folder, and a report without what differs from run to
 * run.
 *
 * @module
 */
import { join } from "node:path";
import type { Report } from "../../lib/report/schema.ts";
import { tempDir } from "../_helpers/temp.ts";

/** A temporary repository (a `.git` folder) holding `files`, by path relative to it. */
export async function workspace(files: Record<string, string | Uint8Array>, prefix = "poly-run-"): Promise<string> {
  const root = await tempDir({ prefix });
  await Deno.mkdir(join(root, ".git"));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  return root;
}

/** A report without what differs from run to run (identity, cache counters). */
export function stable(report: Report): unknown {
  const { poly: _poly, summary, ...rest } = report;
  const { cache: _cache, ...counts } = summary;
  return { ...rest, summary: counts };
}
