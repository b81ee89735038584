/// <reference lib="deno.worker" />
// A Deno Worker that writes cache entries (see _writer.ts) and answers with the count read back.
import { writeEntries } from "./_writer.ts";

self.onmessage = async (e: MessageEvent<{ anchor: string; tag: string; count: number }>) => {
  self.postMessage(await writeEntries(e.data.anchor, e.data.tag, e.data.count));
};
