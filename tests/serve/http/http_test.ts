/**
 * `poly mcp --http` as a real process, spoken to by the SDK's own Streamable
 * HTTP client and by raw HTTP: tokens (401 for missing, wrong, revoked and
 * expired ones, at once), levels (a read token and a viewer cannot act), a
 * demotion applying to the next request, sessions bound to their token, Host
 * and Origin checks, and what no tool reaches.
 */
import assert from "node:assert/strict";
import http from "node:http";
import { join } from "node:path";
import { runPoly } from "../../_helpers/cli.ts";
import { startHttpServer } from "../../../tools/serve/http.ts";
import { parseListen } from "../../../tools/serve/http_listen.ts";
import { connect, INITIALIZE, memberWithToken, post, startHttp } from "./_server.ts";
import { withProcessEnv } from "../../_helpers/process_env.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

const text = (r: Result) => r.content.find((c) => c.type === "text")?.text ?? "";

/** The SDK client's error for an HTTP status. */
const status = (code: number) => (e: unknown) => (e as { code?: number }).code === code;

/** A request with headers fetch() would not send as given (Host). */
function rawRequest(
  port: number,
  headers: Record<string, string>,
  method = "POST",
  body: unknown = INITIALIZE,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: data }));
    });
    req.on("error", reject);
    if (method === "POST") req.write(JSON.stringify(body));
    req.end();
  });
}

async function workspace(): Promise<string> {
  const root = await tempDir({ prefix: "poly-http-" });
  await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nrequire_approval = ["lint_fix"]\n');
  await Deno.writeTextFile(join(root, "a.py"), "x = 1\n");
  return root;
}

Deno.test("poly mcp --http: tokens, levels, roles, sessions, Host and Origin", opts, async (t) => {
  const root = await workspace();
  const server = await startHttp({
    root,
    args: ["--allow-origin", "https://app.example.com", "--allow-host", "poly.example.com"],
  });
  const { access } = server;
  try {
    await t.step("the server says where it listens and which tools need approval", () => {
      assert.match(server.stderr(), /serving MCP over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
      assert.match(server.stderr(), /need approval over HTTP: lint_fix/);
    });

    await t.step("401 without a token, with a wrong, malformed, revoked or expired one", async () => {
      const none = await post(server.url, INITIALIZE);
      assert.equal(none.status, 401);
      assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="poly"');
      const good = memberWithToken(access, "ana", "member", { access: "act" });
      const wrong = good.slice(0, -4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
      for (const bad of [wrong, "not-a-token", `${good}x`]) {
        const r = await post(server.url, INITIALIZE, { authorization: `Bearer ${bad}` });
        assert.equal(r.status, 401, bad);
        assert.match(r.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
      }
      const revoked = access.createToken({ member: "ana", access: "read" });
      access.revokeToken(revoked.record.id);
      const r1 = await post(server.url, INITIALIZE, { authorization: `Bearer ${revoked.token}` });
      assert.equal(r1.status, 401);
      assert.match(r1.text, /revoked/);
      const expired = access.createToken({ member: "ana", access: "read", expiresInMs: 1 });
      await new Promise((r) => setTimeout(r, 5));
      const r2 = await post(server.url, INITIALIZE, { authorization: `Bearer ${expired.token}` });
      assert.equal(r2.status, 401);
      assert.match(r2.text, /expired/);
      await assert.rejects(connect(server.url, wrong), status(401));
      await assert.rejects(connect(server.url), status(401));
    });

    await t.step("a token revoked mid-session is refused on its next request", async () => {
      const { token, record } = access.createToken({ member: "ana", access: "read" });
      const client = await connect(server.url, token);
      const before = await client.callTool({ name: "whoami", arguments: {} }) as Result;
      assert.equal(before.structuredContent?.member, "ana");
      access.revokeToken(record.id);
      await assert.rejects(client.callTool({ name: "whoami", arguments: {} }), status(401));
      await client.close();
    });

    await t.step("a read token reads but cannot call an act tool", async () => {
      const token = memberWithToken(access, "rita", "member", { access: "read" });
      const client = await connect(server.url, token);
      const lint = await client.callTool({ name: "lint", arguments: { paths: ["a.py"] } }) as Result;
      assert.equal(lint.isError, false, text(lint));
      for (const name of ["cache_clean", "lint_fix", "approve_change"]) {
        const r = await client.callTool({
          name,
          arguments: name === "approve_change" ? { id: "prop_x" } : {},
        }) as Result;
        assert.equal(r.isError, true, name);
        assert.match(text(r), new RegExp(`"${name}" needs (act|approve) access`), name);
      }
      assert.equal(server.proposals.list({ root: server.root }).length, 0, "a refused call proposes nothing");
      const who = await client.callTool({ name: "whoami", arguments: {} }) as Result;
      assert.deepEqual(who.structuredContent?.levels, ["read"]);
      await client.close();
    });

    await t.step("a viewer with an act token (and approvals) can only read", async () => {
      const token = memberWithToken(access, "vic", "viewer", { access: "act", approvals: true });
      const client = await connect(server.url, token);
      const r = await client.callTool({ name: "cache_clean", arguments: {} }) as Result;
      assert.equal(r.isError, true);
      assert.match(text(r), /viewer/);
      const p = await client.callTool({ name: "lint_fix", arguments: { paths: ["a.py"] } }) as Result;
      assert.equal(p.isError, true);
      const who = await client.callTool({ name: "whoami", arguments: {} }) as Result;
      assert.deepEqual(who.structuredContent?.levels, ["read"]);
      await client.close();
    });

    await t.step("a demotion (poly members set-role) takes effect on the next request", async () => {
      const token = memberWithToken(access, "dan", "member", { access: "act" });
      const client = await connect(server.url, token);
      const ok = await client.callTool({ name: "cache_clean", arguments: {} }) as Result;
      assert.equal(ok.isError, false, text(ok));
      const demote = await runPoly(["members", "set-role", "dan", "viewer"], { env: server.env });
      assert.equal(demote.code, 0, demote.stderr);
      const refused = await client.callTool({ name: "cache_clean", arguments: {} }) as Result;
      assert.equal(refused.isError, true);
      assert.match(text(refused), /viewer/);
      access.setRole("dan", "member");
      const again = await client.callTool({ name: "cache_clean", arguments: {} }) as Result;
      assert.equal(again.isError, false, text(again));
      await client.close();
    });

    await t.step("a removed member's tokens stop working at once", async () => {
      const token = memberWithToken(access, "rem", "member", { access: "read" });
      const client = await connect(server.url, token);
      access.removeMember("rem");
      await assert.rejects(client.listTools(), status(401));
      await client.close().catch(() => {});
    });

    await t.step("a session answers only the token that opened it", async () => {
      const a = memberWithToken(access, "sam", "member", { access: "read" });
      const b = access.createToken({ member: "sam", access: "read" }).token;
      const init = await post(server.url, INITIALIZE, { authorization: `Bearer ${a}` });
      assert.equal(init.status, 200, init.text);
      const sid = init.headers.get("mcp-session-id");
      assert.ok(sid);
      const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
      const other = await post(server.url, list, { authorization: `Bearer ${b}`, "mcp-session-id": sid });
      assert.equal(other.status, 403);
      const unknown = await post(server.url, list, { authorization: `Bearer ${a}`, "mcp-session-id": "nope" });
      assert.equal(unknown.status, 404);
      const del = await fetch(server.url, {
        method: "DELETE",
        headers: { authorization: `Bearer ${a}`, "mcp-session-id": sid },
      });
      await del.body?.cancel();
      assert.equal(del.status, 200);
    });

    await t.step("Host and Origin are checked before the token (DNS rebinding)", async () => {
      const port = server.port;
      const evilHost = await rawRequest(port, { host: "evil.example.com" });
      assert.equal(evilHost.status, 403);
      assert.match(JSON.parse(evilHost.text).error.message, /Host "evil\.example\.com" is not allowed/);
      const evilOrigin = await rawRequest(port, { host: `127.0.0.1:${port}`, origin: "http://evil.example.com" });
      assert.equal(evilOrigin.status, 403);
      assert.equal((await rawRequest(port, { host: `127.0.0.1:${port}`, origin: "null" })).status, 403);
      // Allowed ones get as far as the token check.
      const allowed: Record<string, string>[] = [
        { host: `localhost:${port}` },
        { host: `[::1]:${port}` },
        { host: "poly.example.com" },
        { host: `127.0.0.1:${port}`, origin: "http://localhost:5173" },
        { host: `127.0.0.1:${port}`, origin: "https://app.example.com" },
      ];
      for (const headers of allowed) {
        assert.equal((await rawRequest(port, headers)).status, 401, JSON.stringify(headers));
      }
      const preflight = await rawRequest(
        port,
        { host: `127.0.0.1:${port}`, origin: "https://app.example.com" },
        "OPTIONS",
      );
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers["access-control-allow-origin"], "https://app.example.com");
      assert.match(String(preflight.headers["access-control-allow-headers"]), /authorization/);
    });

    await t.step("only /mcp is served", async () => {
      const res = await fetch(server.url.replace(/\/mcp$/, "/other"));
      await res.body?.cancel();
      assert.equal(res.status, 404);
    });

    await t.step("no tool reaches tokens, members or sealed secrets", async () => {
      const token = memberWithToken(access, "nia", "admin", { access: "act", approvals: true });
      const client = await connect(server.url, token);
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 30);
      for (const tool of tools) assert.doesNotMatch(tool.name, /token|member|secret|seal|grant|role/i, tool.name);
      // The state database lies outside the workspace, so no path argument reaches it.
      const db = join(server.env.POLY_STATE_HOME, "poly.db");
      const lint = await client.callTool({ name: "lint", arguments: { paths: [db] } }) as Result;
      assert.equal(lint.isError, true);
      assert.match(text(lint), /outside the workspace root/);
      const cfg = await client.callTool({ name: "config_show", arguments: { config: db } }) as Result;
      assert.equal(cfg.isError, true);
      const who = await client.callTool({ name: "whoami", arguments: {} }) as Result;
      assert.doesNotMatch(JSON.stringify(who), /poly_tok_/, "whoami never shows a secret");
      assert.deepEqual(who.structuredContent?.levels, ["read", "act", "approve"]);
      await client.close();
    });
  } finally {
    const code = await server.stop();
    assert.equal(code, 0, `SIGTERM ends the server cleanly: ${server.stderr()}`);
  }
});

Deno.test("poly mcp --http refuses to serve a workspace that holds its state database", opts, async () => {
  const root = await tempDir({ prefix: "poly-http-state-" });
  const r = await runPoly(["mcp", "--http", "127.0.0.1:0"], {
    cwd: root,
    env: { POLY_STATE_HOME: join(root, ".state") },
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /inside the workspace root/);
});

Deno.test("startHttpServer() refuses a bad [serve] section; parseListen() reads [HOST:]PORT", opts, async () => {
  const root = await tempDir({ prefix: "poly-http-bad-" });
  // Refused before any database is opened; should one be, it is a throwaway.
  await withProcessEnv({ POLY_STATE_HOME: await tempDir({ prefix: "poly-http-bad-state-" }) }, async () => {
    await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nrequire_approval = ["lint"]\n');
    await assert.rejects(startHttpServer({ root, port: 0 }), /a read tool: only act tools can need approval/);
    await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nrequire_approval = ["lint_fixx"]\n');
    await assert.rejects(startHttpServer({ root, port: 0 }), /"lint_fixx", which is not a tool/);
    await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nallowed_origin = ["x"]\n');
    await assert.rejects(startHttpServer({ root, port: 0 }), /allowed_origin/);
    await Deno.writeTextFile(join(root, "poly.toml"), '[serve]\nallowed_origins = ["https://x.example/path"]\n');
    await assert.rejects(startHttpServer({ root, port: 0 }), /expected an origin/);
    assert.deepEqual(parseListen("8765"), { hostname: "127.0.0.1", port: 8765 });
    assert.deepEqual(parseListen("0.0.0.0:0"), { hostname: "0.0.0.0", port: 0 });
    assert.deepEqual(parseListen("[::1]:9"), { hostname: "::1", port: 9 });
    for (const bad of ["nope:x", "70000", "host:", ":80"]) {
      assert.throws(() => parseListen(bad), /Invalid --http address/, bad);
    }
  });
});
