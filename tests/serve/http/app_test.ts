/**
 * The HTTP endpoint in-process (`createHttpApp().request()`, as hono's `app.request()`): the
 * same handler `poly mcp --http` serves, with no listener and no process, against a state
 * home of the test's own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createHttpApp, type HttpApp } from "../../../tools/serve/http.ts";
import { accessStores } from "../../../lib/access/mod.ts";
import { INITIALIZE, memberWithToken } from "./_server.ts";
import { withProcessEnv } from "../../_helpers/process_env.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const MCP = "http://127.0.0.1:8765/mcp";
const ACCEPT = "application/json, text/event-stream";

/** Runs `body` with an app over a fresh workspace and state home, and a read token for "ana". */
async function withApp(body: (app: HttpApp, token: string) => Promise<void>): Promise<void> {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-http-app-" }));
  const root = join(base, "ws");
  await Deno.mkdir(join(root, ".git"), { recursive: true });
  await withProcessEnv({ POLY_STATE_HOME: join(base, "state"), POLY_CACHE_HOME: join(base, "cache") }, async () => {
    const app = await createHttpApp({ root });
    const token = memberWithToken(accessStores().access, "ana", "member", { access: "read" });
    try {
      await body(app, token);
    } finally {
      await app.close();
    }
  });
}

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(MCP, {
    method: "POST",
    // A client always sends Host (the endpoint refuses a request without an allowed one).
    headers: { host: "127.0.0.1:8765", "content-type": "application/json", accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

Deno.test("createHttpApp(): the endpoint's refusals, in-process", opts, async () => {
  await withApp(async (app, token) => {
    const other = await app.request(
      new Request("http://127.0.0.1:8765/other", { headers: { host: "127.0.0.1:8765" } }),
    );
    assert.equal(other.status, 404);
    assert.match((await other.json()).error.message, /the MCP endpoint is \/mcp/);

    const foreign = await app.request(
      post(INITIALIZE, { origin: "https://evil.example", authorization: `Bearer ${token}` }),
    );
    assert.equal(foreign.status, 403);
    await foreign.body?.cancel();

    const anonymous = await app.request(post(INITIALIZE));
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), 'Bearer realm="poly"');
    await anonymous.body?.cancel();

    const wrong = await app.request(post(INITIALIZE, { authorization: "Bearer not-a-token" }));
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get("www-authenticate") ?? "", /invalid_token/);
    await wrong.body?.cancel();

    const unknown = await app.request(post(INITIALIZE, { authorization: `Bearer ${token}`, "mcp-session-id": "nope" }));
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    assert.equal(app.sessions(), 0);
  });
});

Deno.test("createHttpApp(): a session opens with a token, and its level decides what a call may do", opts, async () => {
  await withApp(async (app, token) => {
    const auth = { authorization: `Bearer ${token}` };
    const init = await app.request(post(INITIALIZE, auth));
    assert.equal(init.status, 200);
    const sid = init.headers.get("mcp-session-id");
    assert.ok(sid, "a session id");
    await init.body?.cancel();
    assert.equal(app.sessions(), 1);
    const session = { ...auth, "mcp-session-id": sid!, "mcp-protocol-version": INITIALIZE.params.protocolVersion };
    const ack = await app.request(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session));
    assert.equal(ack.status, 202);
    await ack.body?.cancel();
    const answer = async (body: unknown) => {
      const res = await app.request(post(body, session));
      assert.equal(res.status, 200);
      const text = await res.text();
      const data = text.split("\n").find((l) => l.startsWith("data: "));
      return JSON.parse(data ? data.slice(6) : text).result;
    };
    const { tools } = await answer({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.ok((tools as { name: string }[]).some((t) => t.name === "lint"));
    const who = await answer({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "whoami", arguments: {} },
    });
    assert.deepEqual(who.structuredContent.levels, ["read"]);
    const refused = await answer({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "lint_fix", arguments: {} },
    });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /"lint_fix" needs act access/);
  });
});
