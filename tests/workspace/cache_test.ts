/**
 * Reuse of whole-project outcomes (lib/workspace/_cache.ts): a job run through rustup's proxy or a version manager's
 * shim is keyed by the version its toolchain reports, since the proxy's file stays the same across `rustup update`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { jobKey } from "../../lib/workspace/_cache.ts";
import type { PlannedJob } from "../../lib/workspace/plan.ts";
import { tempDir } from "../_helpers/temp.ts";

/** A clippy job in `dir`, as the plan makes it but for `cargo`, named by its path (the process's PATH is shared). */
function clippyJob(dir: string, cargo: string): PlannedJob {
  return {
    name: "clippy",
    tool: "clippy",
    dir,
    rel: ".",
    argv: [cargo, "clippy", "--workspace", "--all-targets", "--message-format=json"],
    timeoutMs: 60_000,
    lock: dir,
    cacheable: true,
    judge: () => ({ status: "passed", diagnostics: [] }),
  };
}

Deno.test({
  name: "jobKey(): clippy through a shim is keyed by the version its toolchain reports, which an update changes",
  ignore: Deno.build.os === "windows",
  async fn() {
    const bin = await tempDir({ prefix: "poly-ws-shim-" });
    const project = await tempDir({ prefix: "poly-ws-project-" });
    await Deno.writeTextFile(join(project, "Cargo.toml"), '[package]\nname = "p"\nversion = "0.1.0"\n');
    // The shim's own file never changes; the toolchain it runs does (`rustup update nightly`).
    const version = join(bin, "toolchain-version");
    await Deno.writeTextFile(join(bin, "cargo"), `#!/bin/sh\ncat "${version}"\n`, { mode: 0o755 });
    await Deno.writeTextFile(version, "clippy 0.1.90 (1111111 2026-05-01)\n");
    const cache = { dir: join(project, ".cache"), build: "b" };
    const job = clippyJob(project, join(bin, "cargo"));
    const first = await jobKey(job, cache);
    assert.ok(first, "the outcome is cacheable");
    assert.equal(await jobKey(job, cache), first, "the same toolchain: the same key");
    await Deno.writeTextFile(version, "clippy 0.1.90 (2222222 2026-05-02)\n");
    assert.notEqual(await jobKey(job, cache), first, "an updated toolchain: another key");
    // A toolchain that cannot tell its version: the outcome is not kept.
    await Deno.remove(version);
    assert.equal(await jobKey(job, cache), undefined);
    await Deno.remove(bin, { recursive: true });
    await Deno.remove(project, { recursive: true });
  },
});
