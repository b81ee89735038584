// A cache writer run as a separate process (or worker) by the concurrency tests.
import { openCache } from "../../lib/cache/mod.ts";

/** Writes `count` entries tagged `tag`, reading each back; returns how many read back. */
export async function writeEntries(anchor: string, tag: string, count: number): Promise<number> {
  const cache = await openCache({ anchor, batchSize: 50, warn: (m) => console.error(m) });
  for (let i = 0; i < count; i++) cache.set("lint", `${tag}-${i}`, { tag, i, diagnostics: [] });
  cache.flush();
  let read = 0;
  for (let i = 0; i < count; i++) if (cache.get<{ i: number }>("lint", `${tag}-${i}`)?.i === i) read++;
  cache.close();
  return read;
}

if (import.meta.main) {
  const [anchor, tag, count] = Deno.args;
  console.log(await writeEntries(anchor, tag, Number(count)));
}
