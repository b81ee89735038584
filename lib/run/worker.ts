/**
 * Worker entry: processes file tasks posted by the pool, one at a time.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { closeCaches, failed, type FileTask, processFile } from "./file.ts";

self.onmessage = async (event: MessageEvent<{ id: number; task: FileTask } | { close: true }>) => {
  if ("close" in event.data) {
    self.postMessage({ closed: await closeCaches() });
    return;
  }
  const { id, task } = event.data;
  try {
    self.postMessage({ id, outcome: await processFile(task) });
  } catch (e) {
    const error = `internal error: ${e instanceof Error ? e.message : String(e)}`;
    self.postMessage({ id, outcome: failed(task, error) });
  }
};
