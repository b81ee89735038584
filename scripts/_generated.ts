/**
 * Writing a generated file, or checking that the committed one is current (`--check`): the generators' common end.
 *
 * @module
 */
import { dirname } from "node:path";

/**
 * Writes `text` to `target`; with `check`, writes nothing and exits 1 when the file differs, saying `how` to write it.
 */
export async function writeGenerated(target: string, text: string, check: boolean, how: string): Promise<void> {
  if (check) {
    let current = "";
    try {
      current = await Deno.readTextFile(target);
    } catch { /* missing counts as stale */ }
    if (current !== text) {
      console.error(`${target} is stale: run ${how} and commit the result`);
      Deno.exit(1);
    }
    return;
  }
  await Deno.mkdir(dirname(target), { recursive: true });
  await Deno.writeTextFile(target, text);
  console.error(`wrote ${target}`);
}
