/**
 * Over `poly mcp --http`, a viewer's read token calls `mcp_read` on an upstream
 * tool that echoes the Authorization header poly sent: the answer (text and
 * structured content) and the state database hold no trace of the bearer token.
 */
import assert from "node:assert/strict";
import { runPoly } from "../../_helpers/cli.ts";
import { defaultState, makeFixture, startHttp as startUpstream, storeBytes } from "../../gateway/_fixture.ts";
import { connect, memberWithToken, startHttp } from "./_server.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const TOKEN = "upstream-bearer-7d3e9a1c5b2f4e6d8a0c";

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

Deno.test(
  "poly mcp --http: mcp_read by a viewer never returns or stores the upstream's bearer token",
  opts,
  async () => {
    const state = defaultState();
    state.tools.push({ name: "whoami", description: "Echoes the request.", inputSchema: { type: "object" } });
    state.handlers = { ...state.handlers, whoami: { echo_auth: true } };
    const fx = await makeFixture({ ...state, token: TOKEN });
    const upstream = await startUpstream(fx);
    const root = await tempDir({ prefix: "poly-http-gw-" });
    const server = await startHttp({ root });
    try {
      const env = server.env;
      const added = await runPoly(["servers", "add", "web", "--url", upstream.url, "--token-stdin"], {
        env,
        cwd: root,
        stdin: TOKEN + "\n",
      });
      assert.equal(added.code, 0, added.stderr);
      const shown = await runPoly(["servers", "show", "web", "--format", "json"], { env, cwd: root });
      const tools = JSON.parse(shown.stdout).tools_detail as { name: string; fingerprint: string }[];
      const fp = tools.find((t) => t.name === "whoami")!.fingerprint;
      const granted = await runPoly(["grants", "set", "web", "whoami", "--mode", "read", "--fingerprint", fp], {
        env,
        cwd: root,
      });
      assert.equal(granted.code, 0, granted.stderr);

      const token = memberWithToken(server.access, "vera", "viewer", { access: "read" });
      const client = await connect(server.url, token);
      const r = await client.callTool({
        name: "mcp_read",
        arguments: { target: "web/whoami", schema_sha256: fp },
      }) as Result;
      assert.equal(r.isError, false, JSON.stringify(r));
      const answer = JSON.stringify(r);
      assert.ok(!answer.includes(TOKEN), `the answer carries the token: ${answer}`);
      const result = r.structuredContent?.result as { structuredContent: { token: string } };
      assert.equal(result.structuredContent.token, "[REDACTED:sealed-secret]");
      await client.close();

      const ops = await runPoly(["ops", "list", "--all", "--format", "json"], { env, cwd: root });
      assert.equal(ops.code, 0, ops.stderr);
      assert.match(ops.stdout, /whoami/);
      assert.ok(!ops.stdout.includes(TOKEN));
      assert.ok(!(await storeBytes(env.POLY_STATE_HOME)).includes(TOKEN), "poly.db holds no token");
    } finally {
      await server.stop();
      await upstream.close();
    }
  },
);
