import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addServer,
  catalogOf,
  findServer,
  grantStates,
  listServers,
  refreshServer,
  removeServer,
  setGrant,
  toolFingerprint,
  toolId,
} from "../../lib/gateway/mod.ts";
import { openStore } from "../../lib/store/mod.ts";
import { defaultState, freshStore, makeFixture, startHttp } from "./_fixture.ts";
import { rejects } from "./_assert.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";

bwrapTest("addServer() discovers a stdio upstream in its sandbox and stores ids and fingerprints", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture();
  const out = await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  assert.equal(out.server.revision, 1);
  assert.equal(out.server.transport, "stdio");
  assert.deepEqual(out.added, ["get_title", "set_title", "get_count", "set_count"]);
  const tools = catalogOf(db, "fx");
  const state = defaultState();
  for (const [i, tool] of tools.entries()) {
    assert.match(tool.id, /^tool-[0-9a-f]{16}$/);
    assert.equal(tool.id, toolId(state.tools[i].name));
    assert.equal(tool.fingerprint, toolFingerprint(state.tools[i]));
    assert.deepEqual(tool.definition, state.tools[i]);
  }
  assert.deepEqual(findServer(db, "fx")?.command, fx.command);
});

bwrapTest("addServer() stores nothing when discovery fails or the catalog is refused", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture({ ...defaultState(), list_error: "database offline" });
  await rejects(
    addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir }),
    "discovery_failed",
    /database offline/,
  );
  assert.equal(findServer(db, "fx"), undefined);

  const many = await makeFixture({
    tools: Array.from({ length: 129 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } })),
    page_size: 50,
  });
  await rejects(
    addServer(db, { name: "many", command: many.commandLine, cwd: many.dir }),
    "catalog_refused",
    /129 tools, more than the limit of 128/,
  );
  const dup = await makeFixture({
    tools: [{ name: "a", inputSchema: { type: "object" } }, { name: "a", inputSchema: { type: "object" } }],
  });
  await rejects(
    addServer(db, { name: "dup", command: dup.commandLine, cwd: dup.dir }),
    "catalog_refused",
    /collide|both named "a"/,
  );
  assert.deepEqual(listServers(db), []);
});

Deno.test("addServer() over HTTP seals the bearer token and refuses a catalog that echoes it", async () => {
  const { db, path } = await freshStore();
  const token = "s3cret-token-for-the-fixture-0123456789";
  const fx = await makeFixture({ ...defaultState(), token });
  const http = await startHttp(fx);
  try {
    await rejects(addServer(db, { name: "noauth", url: http.url }), "upstream", /401/);
    await rejects(addServer(db, { name: "wrong", url: http.url, token: "nope" }), "upstream", /401/);
    const out = await addServer(db, { name: "web", url: http.url, token });
    assert.equal(out.server.auth, "bearer");
    assert.equal(catalogOf(db, "web").length, 4);
    const row = findServer(db, "web")!;
    assert.ok(row.secret?.startsWith("v1."));
    assert.ok(!row.secret!.includes(token));
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    for (const file of [path, `${path}-wal`]) {
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(file);
      } catch {
        continue;
      }
      const text = new TextDecoder("latin1").decode(bytes);
      assert.ok(!text.includes(token), `${file} contains the token`);
      assert.ok(!text.includes(btoa(token).slice(0, 20)), `${file} contains the token in base64`);
    }
    // The refresh presents the unsealed token again.
    assert.equal((await refreshServer(db, "web", 1)).changed, false);

    fx.update((s) => {
      s.tools[0].description = `Use token ${token} to log in`;
    });
    await rejects(refreshServer(db, "web", 1), "catalog_refused", /echoes the credential/);
    const echo = await makeFixture({ ...fx.state() });
    const http2 = await startHttp(echo);
    try {
      await rejects(addServer(db, { name: "echo", url: http2.url, token }), "catalog_refused", /echoes/);
      assert.equal(findServer(db, "echo"), undefined);
    } finally {
      await http2.close();
    }
  } finally {
    await http.close();
  }
});

Deno.test("addServer() refuses URLs with credentials, query strings or fragments before connecting", async () => {
  const { db } = await freshStore();
  await rejects(addServer(db, { name: "a", url: "http://user:pw@127.0.0.1:1/mcp" }), "invalid_endpoint", /credentials/);
  await rejects(addServer(db, { name: "a", url: "http://127.0.0.1:1/mcp?key=1" }), "invalid_endpoint", /query/);
  await rejects(addServer(db, { name: "a", url: "http://127.0.0.1:1/mcp#x" }), "invalid_endpoint", /fragment/);
  await rejects(addServer(db, { name: "a", url: "ftp://127.0.0.1/mcp" }), "invalid_endpoint", /http/);
  await rejects(addServer(db, { name: "a/b", url: "http://127.0.0.1:1/mcp" }), "invalid_name");
});

bwrapTest("refreshServer() raises the revision only on change, and a changed tool's grant stops applying", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture();
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  const same = await refreshServer(db, "fx", 1);
  assert.equal(same.changed, false);
  assert.equal(same.server.revision, 1);

  const get = catalogOf(db, "fx")[0];
  const granted = setGrant(db, {
    server: "fx",
    tool: "get_title",
    mode: "read",
    fingerprint: get.fingerprint,
    expectedRevision: 1,
  });
  assert.equal(granted.revision, 2);
  assert.equal(grantStates(db, "fx")[0].state, "active");

  fx.update((s) => {
    (s.tools[0].inputSchema as Record<string, unknown>).properties = { verbose: { type: "boolean" } };
    s.tools.push({ name: "new_tool", inputSchema: { type: "object" } });
  });
  const changed = await refreshServer(db, "fx", 2);
  assert.equal(changed.changed, true);
  assert.equal(changed.server.revision, 3);
  assert.deepEqual(changed.added, ["new_tool"]);
  assert.deepEqual(changed.modified, ["get_title"]);
  const view = grantStates(db, "fx")[0];
  assert.equal(view.state, "stale");
  assert.equal(view.fingerprint, get.fingerprint);
  assert.notEqual(view.current_fingerprint, get.fingerprint);
  assert.equal((await refreshServer(db, "fx", 3)).server.revision, 3);
});

bwrapTest("expected_revision: of two writers holding the same revision, the second is refused", async () => {
  const { db, path } = await freshStore();
  const other = openStore({ path });
  const fx = await makeFixture();
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  const [get, , count] = catalogOf(db, "fx");
  // Both writers read revision 1, then write.
  const first = setGrant(db, {
    server: "fx",
    tool: get.name,
    mode: "read",
    fingerprint: get.fingerprint,
    expectedRevision: 1,
  });
  assert.equal(first.revision, 2);
  await rejects(
    () =>
      setGrant(other, {
        server: "fx",
        tool: count.name,
        mode: "read",
        fingerprint: count.fingerprint,
        expectedRevision: 1,
      }),
    "revision_conflict",
    /changed since revision 1 \(it is now at revision 2\)/,
  );
  await rejects(refreshServer(other, "fx", 1), "revision_conflict");
  await rejects(() => removeServer(other, "fx", 1), "revision_conflict");
  // A refresh that changes the catalog while another writer slipped in is refused at write time.
  fx.update((s) => {
    s.tools[2].description = "changed";
  });
  const racing = refreshServer(db, "fx", 2);
  setGrant(other, {
    server: "fx",
    tool: count.name,
    mode: "read",
    fingerprint: count.fingerprint,
    expectedRevision: 2,
  });
  await rejects(racing, "revision_conflict");
  assert.equal(catalogOf(db, "fx")[2].fingerprint, count.fingerprint, "the catalog was not overwritten");
  other.close();
});

bwrapTest("removeServer() disables a server; a new registration starts without the old grants", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture();
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
  const get = catalogOf(db, "fx")[0];
  setGrant(db, { server: "fx", tool: get.name, mode: "read", fingerprint: get.fingerprint, expectedRevision: 1 });
  await rejects(addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir }), "exists");
  const removed = removeServer(db, "fx", 2);
  assert.equal(removed.enabled, false);
  assert.deepEqual(listServers(db), []);
  assert.equal(listServers(db, true).length, 1);
  await rejects(refreshServer(db, "fx", 3), "disabled");
  await addServer(db, { name: "fx", command: fx.commandLine, cwd: join(fx.dir) });
  assert.deepEqual(grantStates(db, "fx"), []);
  assert.equal(findServer(db, "fx")?.revision, 1);
});

Deno.test("addServer() refuses a stdio working directory that holds the home, and --env or --bind-ro over HTTP", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture();
  const home = Deno.env.get("HOME")!;
  await rejects(
    addServer(db, { name: "wide", command: fx.commandLine, cwd: home }),
    "invalid_command",
    `Working directory "${home}" contains the home directory "${home}"`,
  );
  await rejects(
    addServer(db, { name: "wide", command: fx.commandLine, cwd: fx.dir, bindRo: ["/"] }),
    "invalid_request",
    `--bind-ro "/" contains the home directory`,
  );
  await rejects(
    addServer(db, { name: "h", url: "https://x.test/mcp", env: { A: "b" } }),
    "invalid_request",
    "--env and --bind-ro apply to stdio upstreams only",
  );
  assert.equal(findServer(db, "wide"), undefined);
});
