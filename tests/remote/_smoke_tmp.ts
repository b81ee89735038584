import { AccessStore } from "../../lib/access/store.ts";
import { openStore } from "../../lib/store/mod.ts";
import { Client, StreamableHTTPClientTransport } from "../../lib/serve/http_sdk.ts";
const db = openStore({ path: "/tmp/smkstate/poly.db" });
const a = new AccessStore(db);
try { a.addMember("ana", "member"); } catch {}
const { token } = a.createToken({ member: "ana", access: "act" });
const child = new Deno.Command(Deno.execPath(), { args: ["run", "-q", "-P", "--config", "/work/main/deno.json", "/work/main/main.ts", "mcp", "--http", "127.0.0.1:0"], cwd: "/tmp/smk", env: { POLY_STATE_HOME: "/tmp/smkstate", POLY_CACHE_HOME: "/tmp/smkcache" }, stderr: "piped", stdout: "null" }).spawn();
const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
let buf = ""; let url = "";
const t0 = performance.now();
while (!url) { const { value, done } = await reader.read(); if (done) break; buf += value; const m = /(http:\/\/\S+\/mcp)/.exec(buf); if (m) url = m[1]; }
console.log("started in", Math.round(performance.now() - t0), "ms:", buf.trim());
const bad = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
console.log("no token:", bad.status, bad.headers.get("www-authenticate"), await bad.text());
const client = new Client({ name: "t", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const { tools } = await client.listTools();
console.log(tools.length, "tools");
const r = await client.callTool({ name: "whoami", arguments: {} });
console.log(JSON.stringify(r.structuredContent));
const l = await client.callTool({ name: "lint", arguments: { paths: ["a.py"] } });
console.log("lint isError", l.isError, JSON.stringify((l.structuredContent as any).summary));
await client.close();
child.kill("SIGTERM");
console.log("exit", (await child.status).code);
