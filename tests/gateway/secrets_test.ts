/**
 * No sealed secret of a server reaches a caller or the store through an upstream
 * result: the bearer token (and OAuth tokens) poly presented, echoed back by the
 * fixture upstream in a read result, a write's result, a verifier's answer, an
 * isError result or a JSON-RPC error, is redacted before readTool()/callTool()
 * return and before `gateway_ops` stores it; what the fleet scrubber recognises
 * (a GitHub token) is redacted too.
 */
import assert from "node:assert/strict";
import {
  addServer,
  callTool,
  catalogOf,
  consentServer,
  findServer,
  readTool,
  resolveProfile,
  setGrant,
} from "../../lib/gateway/mod.ts";
import { oauthPurpose } from "../../lib/gateway/oauth.ts";
import { finishOp, recordOp } from "../../lib/gateway/ops.ts";
import { seal, unseal } from "../../lib/gateway/seal.ts";
import type { DatabaseSync } from "../../lib/store/mod.ts";
import { bwrapTest } from "../_helpers/bwrap.ts";
import { defaultState, type FixtureState, freshStore, makeFixture, startHttp, storeBytes } from "./_fixture.ts";

/** Library calls here stand for a write a person approved (tests/tools/gateway covers proposing). */
const APPROVED = { kind: "approved", proposal: "prop_000000000000", by: "owner (cli)" } as const;

const TOKEN = "fx-bearer-5f0c1d2e3b4a69788796a5b4c3d2e1f0";
const GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

/** The fixture's default catalog plus tools that echo what the request carried. */
function echoingState(extra: Partial<FixtureState> = {}): FixtureState {
  const state = defaultState();
  const tool = (name: string) => ({ name, description: `${name}.`, inputSchema: { type: "object", properties: {} } });
  state.tools.push(tool("whoami"), tool("leak_error"), tool("leak_fail"), tool("set_auth"));
  state.handlers = {
    ...state.handlers,
    whoami: { echo_auth: true },
    leak_error: { error: "upstream saw {auth} and refused" },
    leak_fail: { fail: "request with {auth} was denied" },
    set_auth: { echo_auth: true },
  };
  return { ...state, ...extra };
}

/** Grants every read tool as read and set_auth / set_title as writes verified by whoami / get_title. */
function grantAll(db: DatabaseSync, server: string): Record<string, string> {
  const pins = Object.fromEntries(catalogOf(db, server).map((t) => [t.name, t.fingerprint]));
  let rev = 0;
  const revision = () =>
    (db.prepare("SELECT revision FROM gateway_servers WHERE name = ?").get(server) as {
      revision: number;
    }).revision;
  for (const tool of ["whoami", "leak_error", "leak_fail", "get_title"]) {
    rev = revision();
    setGrant(db, { server, tool, mode: "read", fingerprint: pins[tool], expectedRevision: rev });
  }
  setGrant(db, {
    server,
    tool: "set_auth",
    mode: "write",
    fingerprint: pins.set_auth,
    verifiers: ["whoami"],
    expectedRevision: revision(),
  });
  setGrant(db, {
    server,
    tool: "set_title",
    mode: "write",
    fingerprint: pins.set_title,
    verifiers: ["get_title"],
    expectedRevision: revision(),
  });
  return pins;
}

function opsText(db: DatabaseSync): string {
  return JSON.stringify(db.prepare("SELECT * FROM gateway_ops").all());
}

Deno.test("readTool(): a bearer token the upstream echoes is redacted from the answer and from gateway_ops", async () => {
  const { db, home } = await freshStore();
  const fx = await makeFixture(echoingState({ token: TOKEN }));
  const http = await startHttp(fx);
  try {
    await addServer(db, { name: "web", url: http.url, token: TOKEN });
    const pins = grantAll(db, "web");
    const ctx = { db, profile: resolveProfile(undefined, "default") };

    const read = await readTool(ctx, { target: "web/whoami", schema_sha256: pins.whoami });
    const text = JSON.stringify(read);
    assert.ok(!text.includes(TOKEN), `the answer carries the token: ${text}`);
    assert.match(text, /Bearer \[REDACTED:/);
    assert.equal(read.result.structuredContent?.authorization, "Bearer [REDACTED:sealed-secret]");
    assert.equal(read.result.structuredContent?.token, "[REDACTED:sealed-secret]", "the bare token too");

    const refused = await readTool(ctx, { target: "web/leak_error", schema_sha256: pins.leak_error });
    assert.equal(refused.result.isError, true);
    assert.ok(!JSON.stringify(refused).includes(TOKEN));
    assert.match(JSON.stringify(refused.result.content), /upstream saw Bearer \[REDACTED:sealed-secret\] and refused/);

    const thrown = await readTool(ctx, { target: "web/leak_fail", schema_sha256: pins.leak_fail }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(thrown, "a JSON-RPC error is thrown");
    assert.match(thrown.message, /request with Bearer \[REDACTED:sealed-secret\] was denied/);
    assert.ok(!thrown.message.includes(TOKEN));
    assert.ok(!String((thrown.cause as Error | undefined)?.message ?? "").includes(TOKEN), "nor in its cause");

    fx.update((s) => {
      s.data!.title = `token ${GITHUB}`;
    });
    const gh = await readTool(ctx, { target: "web/get_title", schema_sha256: pins.get_title });
    assert.equal(gh.result.structuredContent?.value, "token [REDACTED:github-token]");

    assert.ok(!opsText(db).includes(TOKEN), "gateway_ops holds no token");
    assert.ok(!opsText(db).includes(GITHUB), "gateway_ops holds no GitHub token");
    const bytes = await storeBytes(home);
    assert.ok(bytes.includes("web"), "the store holds the operations");
    assert.ok(!bytes.includes(TOKEN), "the token is not in the store's bytes");
    assert.ok(!bytes.includes(GITHUB), "the GitHub token is not in the store's bytes");
  } finally {
    await http.close();
  }
});

Deno.test("callTool(): the write's answer, the verifier's and the message are redacted; the token is no oracle", async () => {
  const { db, home } = await freshStore();
  const fx = await makeFixture(echoingState({ token: TOKEN }));
  const http = await startHttp(fx);
  try {
    await addServer(db, { name: "web", url: http.url, token: TOKEN });
    const pins = grantAll(db, "web");
    const ctx = { db, profile: resolveProfile(undefined, "default") };
    const out = await callTool(ctx, {
      authorization: APPROVED,
      target: "web/set_auth",
      schema_sha256: pins.set_auth,
      arguments: {},
      verification: { tool: "whoami", arguments: {}, result_path: "$.authorization", expected: "nothing" },
    });
    assert.equal(out.operation.status, "mismatch");
    const text = JSON.stringify(out);
    assert.ok(!text.includes(TOKEN), `the outcome carries the token: ${text}`);
    assert.equal(out.verification.observed, "Bearer [REDACTED:sealed-secret]");
    assert.match(out.message, /returned "Bearer \[REDACTED:sealed-secret\]"/);
    assert.ok(!opsText(db).includes(TOKEN), "gateway_ops holds no token");
    assert.ok(!(await storeBytes(home)).includes(TOKEN));

    // Expecting the token itself confirms nothing: the verifier's answer is compared after redaction.
    const guess = await callTool(ctx, {
      authorization: APPROVED,
      target: "web/set_auth",
      schema_sha256: pins.set_auth,
      arguments: {},
      verification: { tool: "whoami", arguments: {}, result_path: "$.authorization", expected: `Bearer ${TOKEN}` },
    });
    assert.equal(guess.operation.status, "mismatch");
  } finally {
    await http.close();
  }
});

Deno.test("readTool(): OAuth access and refresh tokens the upstream echoes are redacted", async () => {
  const { db, home } = await freshStore();
  const fx = await makeFixture(echoingState({ oauth: { enabled: true } }));
  const http = await startHttp(fx);
  try {
    await addServer(db, { name: "oa", url: http.url, oauth: {} });
    await consentServer(db, "oa", {
      onAuthorizationUrl: async (url) => {
        const authorize = await fetch(url, { redirect: "manual" });
        await authorize.body?.cancel();
        const back = await fetch(authorize.headers.get("location")!);
        await back.body?.cancel();
      },
    });
    const pins = grantAll(db, "oa");
    const read = await readTool({ db, profile: resolveProfile(undefined, "default") }, {
      target: "oa/whoami",
      schema_sha256: pins.whoami,
    });
    assert.equal(read.result.structuredContent?.authorization, "Bearer [REDACTED:sealed-secret]");
    assert.equal(read.result.structuredContent?.token, "[REDACTED:sealed-secret]");
    const blob = JSON.parse(await unseal(findServer(db, "oa")!.secret!, oauthPurpose("oa"), home));
    const tokens = [blob.tokens.access_token, blob.tokens.refresh_token];
    for (const t of tokens) assert.ok(typeof t === "string" && t.length > 20);
    const bytes = await storeBytes(home);
    for (const t of tokens) {
      assert.ok(!JSON.stringify(read).includes(t), "no OAuth token in the answer");
      assert.ok(!bytes.includes(t), "no OAuth token in the store's bytes");
    }
  } finally {
    await http.close();
  }
});

Deno.test("readTool(): any other value sealed for the server (an environment value) is redacted too", async () => {
  const { db, home } = await freshStore();
  const fx = await makeFixture(echoingState({ token: TOKEN }));
  const http = await startHttp(fx);
  try {
    await addServer(db, { name: "web", url: http.url, token: TOKEN });
    const pins = grantAll(db, "web");
    // What registration with --env stores and opening the server unseals: a value of another kind, same server.
    const value = "env-api-key-9a8b7c6d5e4f";
    await seal(value, "env:web:API_KEY", home);
    fx.update((s) => {
      s.data!.title = `API_KEY=${value}`;
    });
    const read = await readTool({ db, profile: resolveProfile(undefined, "default") }, {
      target: "web/get_title",
      schema_sha256: pins.get_title,
    });
    assert.equal(read.result.structuredContent?.value, "API_KEY=[REDACTED:sealed-secret]");
    assert.ok(!opsText(db).includes(value));
  } finally {
    await http.close();
  }
});

bwrapTest(
  "readTool(): a sealed value a stdio upstream prints on stderr is redacted from the error quoting it",
  async () => {
    const { db, home } = await freshStore();
    const fx = await makeFixture(echoingState());
    await addServer(db, { name: "fx", command: fx.commandLine, cwd: fx.dir });
    const pins = grantAll(db, "fx");
    const value = "stdio-env-secret-0f1e2d3c4b5a";
    await seal(value, "env:fx:API_KEY", home);
    fx.update((s) => {
      s.handlers!.leak_fail = { stderr: `starting with API_KEY ${value}`, fail: "boom" };
    });
    const thrown = await readTool({ db, profile: resolveProfile(undefined, "default") }, {
      target: "fx/leak_fail",
      schema_sha256: pins.leak_fail,
    }).then(() => undefined, (e: Error) => e);
    assert.ok(thrown, "the JSON-RPC error is thrown");
    assert.match(thrown.message, /upstream stderr:\nstarting with API_KEY \[REDACTED:sealed-secret\]/);
    assert.ok(!thrown.message.includes(value) && !String(thrown.stack).includes(value));
    assert.ok(!opsText(db).includes(value));
  },
);

Deno.test("an operation an earlier version stored with the token is redacted the next time the server is used", async () => {
  const { db, home } = await freshStore();
  const fx = await makeFixture(echoingState({ token: TOKEN }));
  const http = await startHttp(fx);
  try {
    await addServer(db, { name: "web", url: http.url, token: TOKEN });
    const pins = grantAll(db, "web");
    const tool = catalogOf(db, "web").find((t) => t.name === "whoami")!;
    // What an earlier version stored: the upstream's answer as it came.
    const old = recordOp(db, {
      server: "web",
      kind: "read",
      tool_id: tool.id,
      tool: tool.name,
      fingerprint: tool.fingerprint,
      profile: "default",
      arguments: {},
      status: "done",
    });
    finishOp(db, old.id, {
      status: "done",
      result: { structuredContent: { authorization: `Bearer ${TOKEN}` } },
      observed: TOKEN,
      detail: `saw ${TOKEN}`,
    });
    assert.ok(opsText(db).includes(TOKEN), "the legacy row holds the token");
    await readTool({ db, profile: resolveProfile(undefined, "default") }, {
      target: "web/get_title",
      schema_sha256: pins.get_title,
    });
    assert.ok(!opsText(db).includes(TOKEN), "the legacy row was redacted");
    const row = db.prepare("SELECT result, observed, detail FROM gateway_ops WHERE id = ?").get(old.id) as Record<
      string,
      string
    >;
    assert.deepEqual(JSON.parse(row.result), {
      structuredContent: { authorization: "Bearer [REDACTED:sealed-secret]" },
    });
    assert.equal(JSON.parse(row.observed), "[REDACTED:sealed-secret]");
    assert.equal(row.detail, "saw [REDACTED:sealed-secret]");
    assert.ok(!(await storeBytes(home)).includes(TOKEN), "nor in the store's bytes (free pages, write-ahead log)");
  } finally {
    await http.close();
  }
});
