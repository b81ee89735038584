import assert from "node:assert/strict";
import {
  addServer,
  callTool,
  catalogOf,
  describeTarget,
  type DispatchContext,
  getOp,
  grantStates,
  listOps,
  OUTCOME_UNCERTAIN,
  readTool,
  refreshServer,
  removeServer,
  resolveOp,
  resolveProfile,
  SCHEMA_CHANGED,
  setGrant,
  toolsForProfile,
  verifyOp,
} from "../../lib/gateway/mod.ts";
import type { DatabaseSync } from "../../lib/store/mod.ts";
import { type Fixture, freshStore, makeFixture, startHttp } from "./_fixture.ts";
import { rejects } from "./_assert.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";

/** Library calls here stand for a write a person approved (tests/tools/gateway covers proposing). */
const APPROVED = { kind: "approved", proposal: "prop_000000000000", by: "owner (cli)" } as const;

interface Setup {
  db: DatabaseSync;
  fx: Fixture;
  ctx: DispatchContext;
  pins: Record<string, string>;
  close(): Promise<void>;
}

/** A registered fixture with get_title/get_count granted read and set_title/set_count granted write. */
async function setup(transport: "stdio" | "http"): Promise<Setup> {
  const { db } = await freshStore();
  const fx = await makeFixture();
  let close = () => Promise.resolve();
  if (transport === "http") {
    const http = await startHttp(fx);
    close = http.close;
    await addServer(db, { name: "fx", url: http.url });
  } else {
    await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  }
  const pins: Record<string, string> = {};
  for (const t of catalogOf(db, "fx")) pins[t.name] = t.fingerprint;
  let rev = 1;
  for (const tool of ["get_title", "get_count"]) {
    rev = setGrant(db, { server: "fx", tool, mode: "read", fingerprint: pins[tool], expectedRevision: rev }).revision;
  }
  rev = setGrant(db, {
    server: "fx",
    tool: "set_title",
    mode: "write",
    fingerprint: pins.set_title,
    verifiers: ["get_title"],
    expectedRevision: rev,
  }).revision;
  setGrant(db, {
    server: "fx",
    tool: "set_count",
    mode: "write",
    fingerprint: pins.set_count,
    verifiers: ["get_count"],
    expectedRevision: rev,
  });
  const ctx: DispatchContext = { db, profile: resolveProfile(undefined, "default"), timeoutMs: 20_000 };
  return { db, fx, ctx, pins, close };
}

function writeTitle(s: Setup, value: string, expected: unknown = value, timeoutMs?: number) {
  return callTool({ ...s.ctx, timeoutMs: timeoutMs ?? s.ctx.timeoutMs }, {
    authorization: APPROVED,
    target: "fx/set_title",
    schema_sha256: s.pins.set_title,
    arguments: { value },
    verification: { tool: "get_title", arguments: {}, result_path: "$.value", expected },
  });
}

for (const transport of ["stdio", "http"] as const) {
  const test = transport === "stdio" ? bwrapTest : Deno.test;
  test(`${transport}: mcp_describe and mcp_read return the schema and a receipt`, async () => {
    const s = await setup(transport);
    try {
      const desc = describeTarget(s.db, s.ctx.profile, "fx/get_title");
      assert.equal(desc.schema_sha256, s.pins.get_title);
      assert.equal(desc.capability, "mcp.read");
      assert.equal((desc.definition as { title: string }).title, "Read the title");
      assert.deepEqual(describeTarget(s.db, s.ctx.profile, "fx/set_title").verifiers, ["fx/get_title"]);

      const out = await readTool(s.ctx, { target: "fx/get_title", schema_sha256: s.pins.get_title, arguments: {} });
      assert.deepEqual(out.result.structuredContent, { value: "first" });
      assert.equal(out.receipt.target, "fx/get_title");
      assert.equal(out.receipt.schema_sha256, s.pins.get_title);
      assert.match(out.receipt.operation, /^op-[0-9a-f]{16}$/);
      assert.match(out.receipt.arguments_sha256, /^[0-9a-f]{64}$/);
      assert.equal(getOp(s.db, out.receipt.operation).status, "done");

      await rejects(
        readTool(s.ctx, { target: "fx/set_title", schema_sha256: s.pins.set_title, arguments: { value: "x" } }),
        "not_granted",
        "granted as write",
      );
      await rejects(
        readTool(s.ctx, { target: "fx/get_title", schema_sha256: s.pins.get_count }),
        "schema_changed",
        SCHEMA_CHANGED,
      );
      assert.equal(s.fx.calls().filter((c) => c.tool === "set_title").length, 0);
    } finally {
      await s.close();
    }
  });

  test(`${transport}: a write whose verifier confirms is confirmed; one that mismatches is recorded as mismatch`, async () => {
    const s = await setup(transport);
    try {
      const ok = await writeTitle(s, "second");
      assert.equal(ok.operation.status, "confirmed");
      assert.equal(ok.verification.matched, true);
      assert.equal(ok.verification.observed, "second");
      assert.equal(s.fx.state().data?.title, "second");

      const bad = await writeTitle(s, "third", "something else");
      assert.equal(bad.operation.status, "mismatch");
      assert.equal(bad.verification.observed, "third");
      assert.match(bad.message, /not confirmed/);
      // A mismatch is a definite observation: the server stays writable.
      assert.equal((await writeTitle(s, "fourth")).operation.status, "confirmed");
    } finally {
      await s.close();
    }
  });

  test(`${transport}: a verifier that times out makes the write unknown and blocks further writes until resolved`, async () => {
    const s = await setup(transport);
    try {
      s.fx.update((st) => {
        st.handlers!.get_title = { get: "title", delay_ms: 4000 };
      });
      const out = await writeTitle(s, "late", "late", 600);
      assert.equal(out.operation.status, "unknown");
      assert.equal(out.message, OUTCOME_UNCERTAIN);
      assert.equal(
        OUTCOME_UNCERTAIN,
        "The MCP mutation outcome is uncertain. Verify the recorded operation before another write.",
      );
      assert.deepEqual(listOps(s.db).map((o) => o.id), [out.operation.id]);

      const before = s.fx.calls().length;
      await rejects(
        callTool(s.ctx, {
          authorization: APPROVED,
          target: "fx/set_count",
          schema_sha256: s.pins.set_count,
          arguments: { value: 5 },
          verification: { tool: "fx/get_count", arguments: {}, result_path: "value", expected: 5 },
        }),
        "unresolved_mutation",
        OUTCOME_UNCERTAIN,
      );
      assert.equal(s.fx.calls().length, before, "nothing was sent upstream");
      await rejects(() => removeServer(s.db, "fx", 5), "unresolved_mutation", /unresolved MCP mutation/);
      // Reads still work.
      s.fx.update((st) => {
        st.handlers!.get_title = { get: "title" };
      });
      await readTool(s.ctx, { target: "fx/get_count", schema_sha256: s.pins.get_count });
      // Verifying again confirms it, which resolves it.
      const verified = await verifyOp(s.ctx, out.operation.id);
      assert.equal(verified.verification.matched, true);
      assert.equal(verified.operation.status, "resolved");
      assert.equal(verified.operation.resolution, "confirmed");
      assert.equal((await writeTitle(s, "after")).operation.status, "confirmed");
    } finally {
      await s.close();
    }
  });

  test(`${transport}: a live change after the grant refuses the write at dispatch and sends nothing`, async () => {
    const s = await setup(transport);
    try {
      s.fx.update((st) => {
        st.tools[1].description = "Sets the title, and also deletes everything.";
      });
      const before = s.fx.calls().length;
      const error = await rejects(writeTitle(s, "x"), "schema_changed", SCHEMA_CHANGED);
      assert.match(error.message, /nothing was sent/);
      assert.equal(s.fx.calls().length, before);
      const refused = listOps(s.db, { all: true }).find((o) => o.kind === "write");
      assert.equal(refused?.status, "refused");
      // A changed verifier refuses too.
      s.fx.update((st) => {
        st.tools[1].description = "Sets the title.";
        st.tools[0].description = "changed verifier";
      });
      await rejects(writeTitle(s, "y"), "schema_changed", /get_title/);
      // After a refresh, the changed tool's grant no longer applies and the write is not offered.
      await refreshServer(s.db, "fx", 5);
      assert.equal(grantStates(s.db, "fx").find((g) => g.tool === "get_title")?.state, "stale");
      const offered = toolsForProfile(s.db, s.ctx.profile).map((t) => t.target);
      assert.deepEqual(offered.sort(), ["fx/get_count", "fx/set_count"]);
      await rejects(writeTitle(s, "z"), "not_granted", "none of its verifiers");
    } finally {
      await s.close();
    }
  });
}

bwrapTest("a write without answer and without confirmation is unknown; a person resolves it", async () => {
  const s = await setup("stdio");
  try {
    s.fx.update((st) => {
      st.handlers!.set_title = { set: "title", apply_then_delay_ms: 4000 };
      st.handlers!.get_title = { get: "title", delay_ms: 4000 };
    });
    const out = await writeTitle(s, "v", "v", 500);
    assert.equal(out.operation.status, "unknown");
    assert.match(out.operation.detail ?? "", /write: .*timed out/i);
    const resolved = resolveOp(s.db, out.operation.id, "applied", "checked by hand");
    assert.equal(resolved.status, "resolved");
    assert.equal(resolved.resolution_note, "checked by hand");
    assert.deepEqual(listOps(s.db), []);
    await rejects(() => resolveOp(s.db, out.operation.id, "applied"), "invalid_request");
  } finally {
    await s.close();
  }
});

bwrapTest("profiles narrow what the grants allow", async () => {
  const s = await setup("stdio");
  try {
    const config = {
      profiles: {
        reviewer: { read: ["fx/get_title"], call: [] },
        writer: { read: [], call: ["fx/*"] },
      },
    };
    const reviewer = resolveProfile(config, "reviewer");
    assert.deepEqual(toolsForProfile(s.db, reviewer).map((t) => t.target), ["fx/get_title"]);
    await rejects(
      readTool({ ...s.ctx, profile: reviewer }, { target: "fx/get_count", schema_sha256: s.pins.get_count }),
      "profile",
      'Profile "reviewer" may not use mcp.read on "fx/get_count"',
    );
    const writer = resolveProfile(config, "writer");
    assert.deepEqual(toolsForProfile(s.db, writer).map((t) => [t.target, t.capability]), [
      ["fx/set_title", "mcp.call"],
      ["fx/set_count", "mcp.call"],
    ]);
    // The default profile is implicit (everything granted) until configured.
    assert.equal(resolveProfile(config, "default").implicit, true);
    await rejects(() => resolveProfile(config, "nobody"), "profile", /not defined.*reviewer, writer/);
    const out = await callTool({ ...s.ctx, profile: writer }, {
      authorization: APPROVED,
      target: "fx/set_count",
      schema_sha256: s.pins.set_count,
      arguments: { value: 3 },
      verification: { tool: "get_count", arguments: {}, result_path: "value", expected: 3 },
    });
    assert.equal(out.operation.status, "confirmed");
    assert.equal(out.operation.profile, "writer");
  } finally {
    await s.close();
  }
});
