import assert from "node:assert/strict";
import {
  addServer,
  catalogOf,
  consentServer,
  findServer,
  listServers,
  readTool,
  resolveProfile,
  setGrant,
  toolsForProfile,
} from "../../lib/gateway/mod.ts";
import type { DatabaseSync } from "../../lib/store/mod.ts";
import { defaultState, freshStore, makeFixture, startHttp } from "./_fixture.ts";
import { rejects } from "./_assert.ts";

/** Plays the browser: opens the authorization URL and follows its redirect to poly's loopback listener. */
async function browser(url: URL): Promise<void> {
  const authorize = await fetch(url, { redirect: "manual" });
  await authorize.body?.cancel();
  assert.equal(authorize.status, 302, "the authorization server redirects back");
  const location = authorize.headers.get("location")!;
  assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  const back = await fetch(location);
  await back.body?.cancel();
}

function status(db: DatabaseSync, name: string) {
  return findServer(db, name)?.oauthStatus;
}

Deno.test("OAuth: stored awaiting consent, then authorization code with PKCE makes it connected", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture({ ...defaultState(), oauth: { enabled: true } });
  const http = await startHttp(fx);
  try {
    // Without a browser (--no-wait): stored first, awaiting consent, nothing offered.
    const pending = await addServer(db, { name: "oa", url: http.url, oauth: {} });
    assert.equal(pending.server.oauth_status, "awaiting_consent");
    assert.equal(pending.server.tools, 0);
    assert.equal(status(db, "oa"), "awaiting_consent");

    let shown: URL | undefined;
    const done = await consentServer(db, "oa", {
      onAuthorizationUrl: async (url) => {
        shown = url;
        await browser(url);
      },
    });
    assert.equal(shown?.searchParams.get("code_challenge_method"), "S256");
    assert.ok(shown?.searchParams.get("code_challenge"));
    assert.ok(shown?.searchParams.get("state"));
    assert.equal(done.server.oauth_status, "connected");
    assert.equal(done.server.tools, 4);
    assert.equal(done.server.revision, 2);
    const secret = findServer(db, "oa")!.secret!;
    assert.ok(secret.startsWith("v1.") && !secret.includes("access_token"));

    const get = catalogOf(db, "oa")[0];
    setGrant(db, { server: "oa", tool: get.name, mode: "read", fingerprint: get.fingerprint, expectedRevision: 2 });
    const ctx = { db, profile: resolveProfile(undefined, "default") };
    const read = await readTool(ctx, { target: "oa/get_title", schema_sha256: get.fingerprint });
    assert.deepEqual(read.result.structuredContent, { value: "first" });

    // The access token is revoked: the refresh token is exchanged (status refreshing), then connected again.
    fx.update((s) => {
      s.oauth = { enabled: true, revoke_before: Date.now(), refresh_delay_ms: 800 };
    });
    const seen = new Set<string>();
    let finished = false;
    const watcher = (async () => {
      while (!finished) {
        seen.add(String(status(db, "oa")));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const again = await readTool(ctx, { target: "oa/get_title", schema_sha256: get.fingerprint });
    finished = true;
    await watcher;
    assert.deepEqual(again.result.structuredContent, { value: "first" });
    assert.ok(seen.has("refreshing"), `statuses seen: ${[...seen]}`);
    assert.equal(status(db, "oa"), "connected");
    assert.ok(fx.calls().some((c) => c.tool === "oauth:refresh"));

    // The refresh token is refused too: a person must consent again.
    fx.update((s) => {
      s.oauth = { enabled: true, revoke_before: Date.now(), reject_refresh: true };
    });
    await rejects(
      readTool(ctx, { target: "oa/get_title", schema_sha256: get.fingerprint }),
      "oauth",
      /needs a person's consent \(status reconnect_required\): run poly servers consent oa/,
    );
    assert.equal(status(db, "oa"), "reconnect_required");
    assert.deepEqual(toolsForProfile(db, ctx.profile), []);
    assert.equal(listServers(db)[0].oauth_status, "reconnect_required");
    await rejects(
      readTool(ctx, { target: "oa/get_title", schema_sha256: get.fingerprint }),
      "oauth",
      /reconnect_required/,
    );

    fx.update((s) => {
      s.oauth = { enabled: true };
    });
    const back = await consentServer(db, "oa", { onAuthorizationUrl: browser });
    assert.equal(back.server.oauth_status, "connected");
    assert.equal(back.changed, false, "the catalog did not change");
    const last = await readTool(ctx, { target: "oa/get_title", schema_sha256: get.fingerprint });
    assert.deepEqual(last.result.structuredContent, { value: "first" });
  } finally {
    await http.close();
  }
});

Deno.test("OAuth: a refused consent leaves the server awaiting consent", async () => {
  const { db } = await freshStore();
  const fx = await makeFixture({ ...defaultState(), oauth: { enabled: true, deny: true } });
  const http = await startHttp(fx);
  try {
    await rejects(
      addServer(db, { name: "oa", url: http.url, oauth: { scope: "tools" }, onAuthorizationUrl: browser }),
      "oauth",
      /refused by the authorization server: access_denied/,
    );
    assert.equal(status(db, "oa"), "awaiting_consent");
    assert.equal(catalogOf(db, "oa").length, 0);
  } finally {
    await http.close();
  }
});
