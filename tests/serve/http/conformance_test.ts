/**
 * The official MCP conformance runner (`npm:@modelcontextprotocol/conformance`,
 * pinned in deno.json) against the real `poly mcp --http` process, for the
 * scenarios that apply to any server: server-initialize, ping, tools-list,
 * dns-rebinding-protection and server-sse-multiple-streams.
 *
 * The runner sends no credentials, and poly answers 401 to a request without a
 * token. So the runner talks to a small loopback proxy that adds one bearer
 * token and passes everything else through unchanged — Host and Origin
 * included, so the DNS-rebinding scenario still reaches poly's own checks.
 *
 * Run by hand (see docs/http.md):
 *   deno run -A npm:@modelcontextprotocol/conformance@0.1.16 server --url URL --scenario ping
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { DENO_JSON, REPO } from "../../_helpers/cli.ts";
import { memberWithToken, startHttp } from "./_server.ts";
import { tempDir } from "../../_helpers/temp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** The scenarios that apply to any server (poly has no test tools, prompts or resources). */
export const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

const PACKAGE = "@modelcontextprotocol/conformance";

async function runnerSpecifier(): Promise<string | undefined> {
  const imports = JSON.parse(await Deno.readTextFile(DENO_JSON)).imports as Record<string, string>;
  const spec = imports[PACKAGE];
  try {
    await Deno.stat(join(REPO, "node_modules", PACKAGE, "package.json"));
    return spec;
  } catch {
    return undefined;
  }
}

const specifier = await runnerSpecifier();

/** A proxy that adds `Authorization: Bearer TOKEN` and forwards to `port` unchanged. */
function authProxy(port: number, token: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const upstream = http.request({
      host: "127.0.0.1",
      port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(e));
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
      server.closeAllConnections?.();
    });
  });
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

async function checksIn(dir: string): Promise<Check[]> {
  const out: Check[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) out.push(...await checksIn(join(dir, e.name)));
    else if (e.name === "checks.json") out.push(...JSON.parse(await Deno.readTextFile(join(dir, e.name))));
  }
  return out;
}

Deno.test({
  name: "the MCP conformance runner passes poly mcp --http on the scenarios for any server",
  ignore: specifier === undefined,
  ...opts,
  async fn(t) {
    const root = await tempDir({ prefix: "poly-conformance-" });
    const server = await startHttp({ root });
    const token = memberWithToken(server.access, "conformance", "member", { access: "read" });
    const proxy = await authProxy(server.port, token);
    const url = `http://127.0.0.1:${proxy.port}/mcp`;
    try {
      // One runner process per scenario, two at a time (a small machine).
      const results = new Map<string, { code: number; out: string; checks: Check[] }>();
      const queue = [...SCENARIOS];
      const worker = async () => {
        for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
          const dir = await tempDir({ prefix: `poly-conformance-${scenario}-` });
          const run = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-A",
              "-q",
              "--config",
              DENO_JSON,
              `${specifier}`,
              "server",
              "--url",
              url,
              "--scenario",
              scenario,
              "-o",
              dir,
            ],
            cwd: REPO,
            stdout: "piped",
            stderr: "piped",
            stdin: "null",
          }).output();
          const dec = new TextDecoder();
          results.set(scenario, {
            code: run.code,
            out: dec.decode(run.stdout) + dec.decode(run.stderr),
            checks: await checksIn(dir),
          });
        }
      };
      await Promise.all([worker(), worker()]);
      const dns = results.get("dns-rebinding-protection")!.checks.map((c) => `${c.id}:${c.status}`).sort();
      assert.deepEqual(dns, ["localhost-host-rebinding-rejected:SUCCESS", "localhost-host-valid-accepted:SUCCESS"]);
      for (const scenario of SCENARIOS) {
        await t.step(scenario, () => {
          const r = results.get(scenario)!;
          const failed = r.checks.filter((c) => c.status !== "SUCCESS" && c.status !== "INFO");
          assert.ok(r.checks.length > 0, `${scenario}: the runner recorded checks\n${r.out}`);
          assert.deepEqual(failed, [], `${scenario}: failed checks\n${r.out}`);
          assert.equal(r.code, 0, `${scenario}: runner exit code\n${r.out}`);
          assert.ok(r.checks.some((c) => c.status === "SUCCESS"), `${scenario}: at least one check passed`);
        });
      }
    } finally {
      await proxy.close();
      await server.stop();
    }
  },
});
