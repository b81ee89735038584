/**
 * The whole-project phase's status line on a terminal (lib/workspace/progress.ts).
 */
import assert from "node:assert/strict";
import { WorkspaceStatus } from "../../lib/workspace/progress.ts";

Deno.test("WorkspaceStatus.line() names the running jobs with their time, and how many are done", () => {
  let now = 0;
  const status = new WorkspaceStatus(() => now);
  assert.equal(status.line(), "");
  status.onJob({ name: "clippy", state: "started", done: 0, total: 4 });
  now = 12_400;
  assert.equal(status.line(), "workspace: clippy (12 s) running; 0 of 4 jobs done");
  status.onJob({ name: "go-vet:svc", state: "started", done: 0, total: 4 });
  now = 15_000;
  status.onJob({ name: "clippy", state: "finished", done: 1, total: 4 });
  assert.equal(status.line(), "workspace: go-vet:svc (2 s) running; 1 of 4 jobs done");
});

Deno.test("WorkspaceStatus.show() redraws the line in place until stopped, then erases it", async () => {
  const status = new WorkspaceStatus();
  status.onJob({ name: "clippy", state: "started", done: 0, total: 1 });
  const written: string[] = [];
  const stop = status.show((text) => written.push(text), 20);
  await new Promise((r) => setTimeout(r, 70));
  await stop();
  assert.ok(written.length >= 3, JSON.stringify(written));
  assert.ok(
    written.slice(0, -1).every((w) => w.startsWith("\r\x1b[2Kworkspace: clippy (0 s) running; 0 of 1 job done")),
  );
  assert.equal(written.at(-1), "\r\x1b[2K");
});
