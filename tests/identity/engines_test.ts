import { deepEqual, equal, notEqual } from "node:assert/strict";
import { inProcessWith } from "../_helpers/isolated.ts";
import { join } from "node:path";
import { codeDigest, fileDigests } from "../../lib/identity/digests.ts";
import {
  engineCacheVersion,
  engineIdentities,
  engineIdentity,
  enginesDocument,
  hostTools,
  modulesMemoPath,
} from "../../lib/identity/engines.ts";
import { sourceStamp } from "../../lib/cache/build.ts";
import { statLine } from "../../lib/identity/code.ts";
import { ENGINES } from "../../lib/engines/registry.ts";
import { shellcheck } from "../../lib/engines/shellcheck/mod.ts";
import { setProcessEnv } from "../_helpers/process_env.ts";
import { tempDir } from "../_helpers/temp.ts";

await setProcessEnv({ POLY_CACHE_HOME: await tempDir({ prefix: "poly-identity-test-" }) });

Deno.test("engineIdentities() digests every in-process and bundled engine and leaves host tools out", async () => {
  const ids = await engineIdentities();
  for (const spec of ENGINES) {
    if (spec.tier === "host") equal(ids[spec.id], undefined, spec.id);
    else {
      equal(ids[spec.id]?.version, spec.upstream, spec.id);
      equal(/^[0-9a-f]{64}$/.test(ids[spec.id].digest), true, spec.id);
    }
  }
  for (const id of ["gofmt", "shfmt", "dprint", "clang-format", "webfmt", "oxlint"]) {
    equal(typeof ids[id]?.digest, "string", id);
  }
  equal(Object.keys(ids).join(), Object.keys(ids).sort().join(), "sorted by id");
});

Deno.test("fileDigests() remembers digests by path, size and mtime and notices a change", async () => {
  const dir = await tempDir();
  const path = join(dir, "m.wasm");
  await Deno.writeTextFile(path, "aaaa");
  const [first] = await fileDigests(["file://" + path]);
  equal((await fileDigests(["file://" + path]))[0], first);
  await Deno.writeTextFile(path, "bbbb");
  await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
  notEqual((await fileDigests(["file://" + path]))[0], first);
});

Deno.test("engineIdentity() remembers an engine's module list under the code stamp, and finds it again once a file is gone", async () => {
  const dir = await tempDir();
  let calls = 0;
  const spec = {
    ...shellcheck,
    id: "fake-engine",
    upstream: `fake 1.0 ${crypto.randomUUID()}`,
    tier: "in-process" as const,
    moduleUrls: async () => {
      calls++;
      const path = join(dir, `m${calls}.wasm`);
      await Deno.writeTextFile(path, `module ${calls}`);
      return ["file://" + path];
    },
  };
  const first = await engineIdentity(spec);
  equal(calls, 1);
  deepEqual(await engineIdentity(spec), first, "the remembered list: the same files, the same digest");
  equal(calls, 1, "moduleUrls() is not asked again");
  const memo = JSON.parse(await Deno.readTextFile(modulesMemoPath()));
  deepEqual(memo.engines[`${spec.id}\0${spec.upstream}`], ["file://" + join(dir, "m1.wasm")], "kept on disk");
  await Deno.remove(join(dir, "m1.wasm"));
  const again = await engineIdentity(spec);
  equal(calls, 2, "a remembered file is gone: the list is found again");
  notEqual(again.digest, first.digest);
});

Deno.test("hostTools() reports each host tool as found with a version, or missing", async () => {
  const tools = await hostTools();
  for (const name of ["shellcheck", "go", "rustfmt", "node", "cargo"]) {
    equal(tools.some((t) => t.name === name), true, name);
  }
  for (const t of tools) if (t.found) equal(typeof t.path, "string", t.name);
  // With an empty PATH, in a process of its own (PATH is shared by every test module running beside this one).
  // Deno adds its own `node` shim (under DENO_DIR/node_compat_bin) to a process's PATH: that one may be found.
  const empty = await tempDir();
  const code = `
    const { hostTools } = await import(REPO + "/lib/identity/engines.ts");
    console.log(JSON.stringify((await hostTools()).filter((t) => t.found).map((t) => [t.name, t.path])));
  `;
  const found = await inProcessWith({ PATH: empty }, code) as [string, string][];
  deepEqual(found.filter(([name, path]) => !(name === "node" && path.includes("node_compat_bin"))), []);
});

Deno.test("engineCacheVersion() of a host engine names the program and its version", async () => {
  const v = await engineCacheVersion(shellcheck);
  equal(v.startsWith("shellcheck "), true, v);
});

Deno.test("enginesDocument() lists tier, languages, upstream and digest for every engine", async () => {
  const doc = await enginesDocument();
  equal(doc.engines.length, ENGINES.length);
  const gofmt = doc.engines.find((e) => e.id === "gofmt")!;
  equal(gofmt.tier, "in-process");
  equal(gofmt.format.join(), "go");
  equal(typeof gofmt.digest, "string");
  const govet = doc.engines.find((e) => e.id === "govet")!;
  equal(govet.digest, undefined);
  equal(govet.program, "go");
  equal(doc.engines.find((e) => e.id === "oxlint")?.default_enabled, false);
});

Deno.test("sourceStamp() changes when a source file of poly changes", async () => {
  const root = await tempDir();
  await Deno.mkdir(join(root, "lib"));
  await Deno.writeTextFile(join(root, "main.ts"), "x");
  await Deno.writeTextFile(join(root, "lib", "a.ts"), "a");
  const before = sourceStamp(root).join("\n");
  equal(sourceStamp(root).join("\n"), before);
  await Deno.writeTextFile(join(root, "lib", "a.ts"), "ab");
  notEqual(sourceStamp(root).join("\n"), before);
});

Deno.test("codeDigest(): the same code in another folder, or as another file, has the same digest; a changed byte not", async () => {
  const checkout = async (extra = "") => {
    const root = await tempDir();
    await Deno.mkdir(join(root, "lib"));
    await Deno.writeTextFile(join(root, "main.ts"), "x");
    await Deno.writeTextFile(join(root, "lib", "a.ts"), `a${extra}`);
    return root;
  };
  const [a, b] = [await checkout(), await checkout()];
  // Their stamps differ (paths, inodes, mtimes): what a cache key is made of must not.
  notEqual(sourceStamp(a).join("\n"), sourceStamp(b).join("\n"));
  const digest = await codeDigest(sourceStamp(a), a);
  equal(await codeDigest(sourceStamp(b), b), digest);
  equal(await codeDigest(sourceStamp(a), a), digest, "remembered");
  notEqual(await codeDigest(sourceStamp(await checkout("b")), b), digest);
  // A file moved within the checkout is another program.
  await Deno.rename(join(b, "lib", "a.ts"), join(b, "lib", "c.ts"));
  notEqual(await codeDigest(sourceStamp(b), b), digest);

  // A compiled binary: the executable's bytes, wherever it is installed.
  const [x, y] = [join(a, "poly"), join(b, "poly")];
  await Deno.writeTextFile(x, "binary");
  await Deno.writeTextFile(y, "binary");
  equal(await codeDigest([statLine(x)!]), await codeDigest([statLine(y)!]));
  await Deno.writeTextFile(y, "binarz");
  await Deno.utime(y, new Date(), new Date(Date.now() + 5000));
  notEqual(await codeDigest([statLine(x)!]), await codeDigest([statLine(y)!]));
  // A stat line without an mtime is hashed each time: its file's change cannot hide behind the memo.
  const before = await codeDigest([`${y}:1:6:`]);
  await Deno.writeTextFile(y, "binary");
  notEqual(await codeDigest([`${y}:1:6:`]), before);
});
