/**
 * `poly mcp --http` where it cannot listen: a port another process holds, or an
 * address no interface here has. The real process says so in one line and exits 2,
 * without `internal error` or a stack trace. Nothing is sent beyond loopback: binding
 * to 203.0.113.1 (TEST-NET-3) fails locally.
 */
import assert from "node:assert/strict";
import { runPoly } from "../_helpers/cli.ts";

Deno.test("runMcp(): --http on a port already in use is a one-line error naming the port, exit 2", async () => {
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = held.addr as Deno.NetAddr;
  const { code, stdout, stderr } = await runPoly(["mcp", "--http", String(port)]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.equal(stderr.trimEnd().split("\n").length, 1, stderr);
  assert.match(stderr, new RegExp(`^error: Cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
  assert.doesNotMatch(stderr, /internal error|\bat /);
});

Deno.test("runMcp(): --http on an address this machine does not have is a one-line error, exit 2", async () => {
  const { code, stdout, stderr } = await runPoly(["mcp", "--http", "203.0.113.1:8080"]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.equal(stderr.trimEnd().split("\n").length, 1, stderr);
  assert.match(stderr, /^error: Cannot listen on 203\.0\.113\.1:8080: no network interface here has that address/);
  assert.doesNotMatch(stderr, /internal error|\bat /);
});
