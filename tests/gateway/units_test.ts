import assert from "node:assert/strict";
import { join } from "node:path";
import {
  buildCatalog,
  canonicalJson,
  checkEndpoint,
  GatewayError,
  keyPath,
  MAX_TOOLS,
  seal,
  splitCommand,
  toolFingerprint,
  toolId,
  unseal,
} from "../../lib/gateway/mod.ts";
import { parseResultPath, readPath, resultDocument } from "../../lib/gateway/result_path.ts";
import { sandboxedLaunch } from "../../lib/gateway/sandbox.ts";
import { rejects } from "./_assert.ts";
import { tempDir } from "../_helpers/temp.ts";

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});

Deno.test("canonicalJson() sorts keys at every depth and drops undefined members", () => {
  assert.equal(
    canonicalJson({ b: 1, a: [{ d: true, c: null }, "x"], u: undefined }),
    '{"a":[{"c":null,"d":true},"x"],"b":1}',
  );
  assert.equal(canonicalJson({ "é": 1, "z": 2, "A": 3 }), '{"A":3,"z":2,"é":1}');
  assert.throws(() => canonicalJson({ n: Infinity }), TypeError);
});

Deno.test("toolId() is tool- plus 16 hex of SHA-256 of the name", () => {
  // sha256("get_title") = 53577d569d6585b8...
  assert.equal(toolId("get_title"), "tool-53577d569d6585b8");
});

Deno.test("toolFingerprint() covers the whole definition, in canonical form", () => {
  const base = {
    name: "t",
    title: "T",
    description: "d",
    inputSchema: { type: "object", properties: { a: { type: "string" } } },
    outputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  };
  const fp = toolFingerprint(base);
  assert.match(fp, /^[0-9a-f]{64}$/);
  assert.equal(toolFingerprint(JSON.parse(JSON.stringify({ ...base, name: "t" }))), fp);
  assert.equal(toolFingerprint(Object.fromEntries(Object.entries(base).reverse())), fp, "key order does not matter");
  for (
    const changed of [
      { ...base, title: "T2" },
      { ...base, description: "d2" },
      { ...base, inputSchema: { type: "object", properties: { a: { type: "number" } } } },
      { ...base, outputSchema: { type: "object", properties: {} } },
      { ...base, annotations: { readOnlyHint: false } },
      { ...base, _meta: { extra: 1 } },
    ]
  ) assert.notEqual(toolFingerprint(changed), fp);
});

Deno.test("buildCatalog() refuses too many tools, id collisions, invalid tools and echoed secrets", () => {
  assert.equal(buildCatalog("s", Array.from({ length: MAX_TOOLS }, (_, i) => tool(`t${i}`))).tools.length, 128);
  assert.throws(
    () => buildCatalog("s", Array.from({ length: 129 }, (_, i) => tool(`t${i}`))),
    /more than the limit of 128/,
  );
  assert.throws(
    () => buildCatalog("s", [tool("a"), tool("b")], { idOf: () => "tool-0000000000000000" }),
    /tools "a" and "b" collide on id "tool-0000000000000000"/,
  );
  assert.throws(() => buildCatalog("s", [tool("a"), tool("a")]), /both named "a"/);
  assert.throws(() => buildCatalog("s", [{ name: "x" }]), /not a valid MCP tool definition/);
  assert.throws(
    () => buildCatalog("s", [tool("a", { description: 'say "tok\\en"' })], { secrets: ["tok\\en"] }),
    /echoes the credential/,
  );
  const ok = buildCatalog("s", [tool("a")], { secrets: ["secret-value"] });
  assert.equal(ok.tools[0].id, toolId("a"));
  assert.equal(buildCatalog("s", [tool("a")]).digest, ok.digest);
  assert.notEqual(buildCatalog("s", [tool("a", { title: "x" })]).digest, ok.digest);
});

Deno.test("checkEndpoint() accepts plain http(s) URLs only", () => {
  assert.equal(checkEndpoint("https://example.com/mcp"), "https://example.com/mcp");
  for (
    const [url, why] of [
      ["https://user@example.com/mcp", /credentials/],
      ["https://:pw@example.com/mcp", /credentials/],
      ["https://example.com/mcp?token=1", /query strings/],
      ["https://example.com/mcp?", /query strings/],
      ["https://example.com/mcp#top", /fragments/],
      ["file:///etc/passwd", /only http and https/],
      ["example.com/mcp", /not an absolute URL/],
    ] as const
  ) {
    assert.throws(() => checkEndpoint(url), (e: unknown) => e instanceof GatewayError && why.test(e.message), url);
  }
});

Deno.test("splitCommand() splits words like a shell without running one", () => {
  assert.deepEqual(splitCommand(`node "my server.js" --name 'a b' x\\ y`), [
    "node",
    "my server.js",
    "--name",
    "a b",
    "x y",
  ]);
  assert.deepEqual(splitCommand(`echo "say \\"hi\\"" $HOME`), ["echo", 'say "hi"', "$HOME"]);
  assert.throws(() => splitCommand(`node "open`), /unclosed/);
  assert.throws(() => splitCommand("   "), /empty/);
});

Deno.test("seal() and unseal(): AES-GCM under a 0600 key, bound to its purpose", async () => {
  const home = await tempDir({ prefix: "poly-gw-seal-" });
  const sealed = await seal("the-secret", "bearer:a", home);
  assert.ok(sealed.startsWith("v1.") && !sealed.includes("the-secret"));
  assert.notEqual(await seal("the-secret", "bearer:a", home), sealed, "a fresh IV every time");
  assert.equal(await unseal(sealed, "bearer:a", home), "the-secret");
  await rejects(unseal(sealed, "bearer:b", home), "token", /does not open/);
  const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
  await rejects(unseal(tampered, "bearer:a", home), "token");
  assert.equal((await Deno.stat(keyPath(home))).mode! & 0o777, 0o600);

  const loose = await tempDir({ prefix: "poly-gw-seal-" });
  await Deno.writeFile(join(loose, "gateway.key"), new Uint8Array(32), { mode: 0o644 });
  await Deno.chmod(join(loose, "gateway.key"), 0o644);
  await rejects(seal("x", "p", loose), "token", /readable by other users/);
});

Deno.test("result_path: $-paths, bare names, indexes and quoted keys", () => {
  const doc = { items: [{ id: 1, "display name": "A" }], value: null };
  assert.deepEqual(readPath(doc, parseResultPath("$.items[0].id")), { found: true, value: 1 });
  assert.deepEqual(readPath(doc, parseResultPath('items[0]["display name"]')), { found: true, value: "A" });
  assert.deepEqual(readPath(doc, parseResultPath("items.0.id")), { found: true, value: 1 });
  assert.deepEqual(readPath(doc, parseResultPath("value")), { found: true, value: null });
  assert.deepEqual(readPath(doc, parseResultPath("$")), { found: true, value: doc });
  assert.deepEqual(readPath(doc, parseResultPath("missing")), { found: false });
  assert.throws(() => parseResultPath("$.items[x]"), /not valid/);
  assert.deepEqual(resultDocument({ structuredContent: { a: 1 }, content: [] }), { a: 1 });
  assert.deepEqual(resultDocument({ content: [{ type: "text", text: '{"b":2}' }] }), { b: 2 });
  assert.equal(resultDocument({ content: [{ type: "text", text: "plain" }] }), "plain");
});

Deno.test("sandboxedLaunch() runs the command through bwrap with an empty HOME and a clean environment", async () => {
  const state = await tempDir({ prefix: "poly-gw-sb-" });
  const launch = await sandboxedLaunch({
    name: "s",
    argv: ["node", "x.js"],
    cwd: "/tmp/work",
    stateHome: state,
    home: "/home/dev",
    polyHomes: [],
    env: { GH_TOKEN: "t" },
  });
  assert.equal(launch.command, "bwrap");
  const args = launch.args.join(" ");
  assert.doesNotMatch(args, /--ro-bind \/ \//, "the root is not bound whole");
  assert.match(args, /--tmpfs \/tmp .*--tmpfs \/home\/dev /);
  assert.match(args, /--bind \/tmp\/work \/tmp\/work /);
  const own = join(state, "gateway", "stdio", "s");
  assert.match(args, new RegExp(`--bind ${own} ${own} --chdir /tmp/work`));
  assert.match(args, /--die-with-parent/);
  assert.match(args, /--clearenv/);
  assert.equal(launch.args[launch.args.indexOf("TMPDIR") + 1], "/tmp", "TMPDIR is the private /tmp");
  assert.equal(launch.args[launch.args.indexOf("HOME") + 1], own, "HOME is the upstream's private home");
  assert.equal(launch.args[launch.args.indexOf("GH_TOKEN") + 1], "t");
  assert.deepEqual(launch.args.slice(-3), ["--", "node", "x.js"]);
  assert.equal((await Deno.stat(own)).isDirectory, true);
  await assert.rejects(
    sandboxedLaunch({ name: "s", argv: ["node"], cwd: "/home", stateHome: state, home: "/home/dev" }),
    /Working directory "\/home" contains the home directory "\/home\/dev"/,
  );
  // An argument that holds the home is not bound on its own; a --bind-ro of it is refused.
  const wide = await sandboxedLaunch({
    name: "s",
    argv: ["node", "x.js", "/"],
    cwd: "/tmp/work",
    stateHome: state,
    home: "/home/dev",
    polyHomes: [],
  });
  assert.doesNotMatch(wide.args.join(" "), /--ro-bind \/ \//);
  await assert.rejects(
    sandboxedLaunch({
      name: "s",
      argv: ["node"],
      cwd: "/tmp/work",
      stateHome: state,
      home: "/home/dev",
      bindRo: ["/"],
    }),
    /binds "\/", which contains the home directory "\/home\/dev"/,
  );
});
