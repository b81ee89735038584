/**
 * The stdio upstream's sandbox, observed from inside by the fixture server
 * (`read_from` reads a file whose path the call names, `env_from` a variable):
 * the real home, poly's state (gateway.key, poly.db) and cache are out of reach,
 * its own working folder and private home are not. Each case runs in its own
 * process with HOME and poly's homes set (tests/_helpers/isolated.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { inProcessWith } from "../_helpers/isolated.ts";
import { needsBwrap, NO_BWRAP } from "../_helpers/bwrap.ts";
import { defaultState, makeFixture } from "./_fixture.ts";
import { tempDir } from "../_helpers/temp.ts";

const noBwrap = NO_BWRAP;

/** A fake HOME holding what no upstream may read. */
async function makeHome(): Promise<string> {
  const home = await tempDir({ prefix: "poly-gw-home-" });
  await Deno.mkdir(join(home, ".ssh"));
  await Deno.writeTextFile(join(home, ".ssh", "id_ed25519"), "not a real key");
  await Deno.writeTextFile(join(home, "secret-notes.txt"), "private");
  return home;
}

/** A fixture whose `read` tool reads the file at `path`, and whose `env` tool reads variable `name`. */
async function probeFixture() {
  const state = defaultState();
  state.tools.push(
    { name: "read", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
    { name: "env", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
  );
  state.handlers = { ...state.handlers, read: { read_from: "path" }, env: { env_from: "name" } };
  return await makeFixture(state);
}

/**
 * In a process with `env`: registers the fixture as stdio upstream "fx" (poly's state database and
 * sealing key created in its state home first), then asks it to read each of `paths`.
 */
async function readsFromInside(
  env: Record<string, string>,
  cwd: string,
  paths: string[],
): Promise<Record<string, string>> {
  const code = `
    const gw = await import(REPO + "/lib/gateway/mod.ts");
    const { openServer } = await import(REPO + "/lib/gateway/upstream.ts");
    const { sealingKey } = await import(REPO + "/lib/gateway/seal.ts");
    const { cacheHome } = await import(REPO + "/lib/paths/mod.ts");
    await sealingKey();
    await Deno.mkdir(cacheHome(), { recursive: true });
    await Deno.writeTextFile(cacheHome() + "/cached.txt", "cache");
    const db = gw.gatewayStore();
    const command = "node " + REPO + "/fixtures/upstream/server.mjs --state state.json";
    await gw.addServer(db, { name: "fx", command, cwd: ${JSON.stringify(cwd)} });
    const out = {};
    const open = await openServer(db, gw.findServer(db, "fx"));
    try {
      for (const path of ${JSON.stringify(paths)}) {
        const r = await open.upstream.client.callTool({ name: "read", arguments: { path } });
        out[path] = r.structuredContent.read !== undefined ? "read" : r.structuredContent.error;
      }
    } finally {
      await open.close();
    }
    console.log(JSON.stringify(out));
  `;
  return await inProcessWith({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env }, code) as Record<
    string,
    string
  >;
}

Deno.test({
  name: `a stdio upstream cannot read the real home, gateway.key, poly.db or the cache${needsBwrap(noBwrap)}`,
  ignore: noBwrap,
  async fn() {
    const home = await makeHome();
    const fx = await probeFixture();
    // poly's homes where they are by default: under HOME.
    const state = join(home, ".local", "state", "poly");
    const cache = join(home, ".cache", "poly");
    const seen = await readsFromInside({ HOME: home, POLY_STATE_HOME: state, POLY_CACHE_HOME: cache }, fx.dir, [
      join(home, "secret-notes.txt"),
      join(home, ".ssh", "id_ed25519"),
      join(state, "gateway.key"),
      join(state, "poly.db"),
      join(cache, "cached.txt"),
      join(fx.dir, "state.json"),
    ]);
    assert.deepEqual(seen, {
      [join(home, "secret-notes.txt")]: "ENOENT",
      [join(home, ".ssh", "id_ed25519")]: "ENOENT",
      [join(state, "gateway.key")]: "ENOENT",
      [join(state, "poly.db")]: "ENOENT",
      [join(cache, "cached.txt")]: "ENOENT",
      [join(fx.dir, "state.json")]: "read",
    });
    for (const file of [join(state, "gateway.key"), join(state, "poly.db"), join(cache, "cached.txt")]) {
      assert.ok((await Deno.stat(file)).isFile, `${file} was never written: the test proves nothing`);
    }
  },
});

Deno.test({
  name: `poly's state and cache homes stay hidden inside a folder the upstream may see${needsBwrap(noBwrap)}`,
  ignore: noBwrap,
  async fn() {
    const home = await makeHome();
    const fx = await probeFixture();
    // Both homes inside the upstream's own working folder, which is bound read-write.
    const state = join(fx.dir, "poly-state");
    const cache = join(fx.dir, "poly-cache");
    const seen = await readsFromInside({ HOME: home, POLY_STATE_HOME: state, POLY_CACHE_HOME: cache }, fx.dir, [
      join(state, "gateway.key"),
      join(state, "poly.db"),
      join(cache, "cached.txt"),
      join(fx.dir, "state.json"),
    ]);
    assert.deepEqual(seen, {
      [join(state, "gateway.key")]: "ENOENT",
      [join(state, "poly.db")]: "ENOENT",
      [join(cache, "cached.txt")]: "ENOENT",
      [join(fx.dir, "state.json")]: "read",
    });
    for (const file of [join(state, "gateway.key"), join(state, "poly.db"), join(cache, "cached.txt")]) {
      assert.ok((await Deno.stat(file)).isFile, `${file} was never written: the test proves nothing`);
    }
  },
});

Deno.test({
  name: `a stdio upstream lives in the home of the store it is registered in, which it cannot read${
    needsBwrap(noBwrap)
  }`,
  ignore: noBwrap,
  async fn() {
    const home = await makeHome();
    const fx = await probeFixture();
    // The store (and its sealing key) in one folder, POLY_STATE_HOME pointing at another when the server opens.
    const store = join(fx.dir, "store-home");
    const other = join(fx.dir, "env-home");
    const code = `
      const gw = await import(REPO + "/lib/gateway/mod.ts");
      const { openServer } = await import(REPO + "/lib/gateway/upstream.ts");
      const { sealingKey } = await import(REPO + "/lib/gateway/seal.ts");
      const store = ${JSON.stringify(store)};
      await Deno.mkdir(store, { recursive: true });
      await sealingKey(store);
      const db = gw.gatewayStore(store + "/poly.db");
      const command = "node " + REPO + "/fixtures/upstream/server.mjs --state state.json";
      await gw.addServer(db, { name: "fx", command, cwd: ${JSON.stringify(fx.dir)}, env: { TOKEN: "sealed-value" } });
      const open = await openServer(db, gw.findServer(db, "fx"));
      const out = {};
      try {
        for (const path of [store + "/gateway.key", store + "/poly.db"]) {
          const r = await open.upstream.client.callTool({ name: "read", arguments: { path } });
          out[path] = r.structuredContent.read !== undefined ? "read" : r.structuredContent.error;
        }
        const r = await open.upstream.client.callTool({ name: "env", arguments: { name: "TOKEN" } });
        out.TOKEN = r.structuredContent.value;
      } finally {
        await open.close();
      }
      out.ownHome = (await Deno.stat(store + "/gateway/stdio/fx")).isDirectory;
      out.otherHome = await Deno.stat(${JSON.stringify(other)} + "/gateway/stdio/fx").then(() => true, () => false);
      console.log(JSON.stringify(out));
    `;
    const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
    const seen = await inProcessWith({ PATH: path, HOME: home, POLY_STATE_HOME: other }, code);
    assert.deepEqual(seen, {
      [join(store, "gateway.key")]: "ENOENT",
      [join(store, "poly.db")]: "ENOENT",
      TOKEN: "sealed-value",
      ownHome: true,
      otherHome: false,
    });
    for (const file of [join(store, "gateway.key"), join(store, "poly.db")]) {
      assert.ok((await Deno.stat(file)).isFile, `${file} was never written: the test proves nothing`);
    }
  },
});

Deno.test({
  name: `a stdio upstream gets the variables and read-only binds given at registration, nothing more${
    needsBwrap(noBwrap)
  }`,
  ignore: noBwrap,
  async fn() {
    const home = await makeHome();
    const fx = await probeFixture();
    const shared = await tempDir({ prefix: "poly-gw-bind-" });
    await Deno.mkdir(join(shared, "config"));
    await Deno.writeTextFile(join(shared, "config", "hosts.yml"), "github.com: {}\n");
    await Deno.writeTextFile(join(shared, "beside.txt"), "not bound");
    const token = `ghp_${"x".repeat(36)}`;
    const code = `
      const gw = await import(REPO + "/lib/gateway/mod.ts");
      const { openServer } = await import(REPO + "/lib/gateway/upstream.ts");
      const db = gw.gatewayStore();
      const command = "node " + REPO + "/fixtures/upstream/server.mjs --state state.json";
      await gw.addServer(db, {
        name: "fx",
        command,
        cwd: ${JSON.stringify(fx.dir)},
        env: { GH_TOKEN: ${JSON.stringify(token)}, DEBUG: "1" },
        bindRo: [${JSON.stringify(join(shared, "config"))}],
      });
      const row = db.prepare("SELECT env, bind_ro FROM gateway_servers WHERE name = 'fx'").get();
      const open = await openServer(db, gw.findServer(db, "fx"));
      const call = async (name, args) => (await open.upstream.client.callTool({ name, arguments: args })).structuredContent;
      try {
        console.log(JSON.stringify({
          token: (await call("env", { name: "GH_TOKEN" })).value,
          debug: (await call("env", { name: "DEBUG" })).value,
          user: (await call("env", { name: "USER" })).value,
          bound: await call("read", { path: ${JSON.stringify(join(shared, "config", "hosts.yml"))} }),
          beside: await call("read", { path: ${JSON.stringify(join(shared, "beside.txt"))} }),
          storedPlain: String(row.env).includes(${JSON.stringify(token)}),
          bindRo: JSON.parse(row.bind_ro),
          secrets: open.secrets(),
        }));
      } finally {
        await open.close();
      }
    `;
    const out = await inProcessWith(
      {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        USER: "dev",
        POLY_STATE_HOME: join(home, ".local", "state", "poly"),
        POLY_CACHE_HOME: join(home, ".cache", "poly"),
      },
      code,
    );
    assert.deepEqual(out, {
      token,
      debug: "1",
      user: null,
      bound: { read: "github.com: {}\n" },
      beside: { error: "ENOENT" },
      storedPlain: false,
      bindRo: [join(shared, "config")],
      secrets: [token],
    });
  },
});
