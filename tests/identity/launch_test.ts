/**
 * How main.ts chooses to load the program (lib/identity/launch.ts): from a
 * bundle only while the checkout's code stamp is the one it was built under.
 * On a checkout of a few files in a temporary folder, with a stand-in entry.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BUNDLE_DIR,
  BUNDLE_ENTRY,
  bundleFolder,
  bundleKey,
  chooseProgram,
  launched,
} from "../../lib/identity/launch.ts";
import { sourceRoot, sourceStamp } from "../../lib/identity/code.ts";
import { tempDir } from "../_helpers/temp.ts";

/** A checkout of a few source files. */
async function checkout(): Promise<string> {
  const root = await tempDir({ prefix: "poly-launch-" });
  await Deno.mkdir(join(root, "lib"), { recursive: true });
  await Deno.mkdir(join(root, "scripts"), { recursive: true });
  await Deno.writeTextFile(join(root, "main.ts"), "// main\n");
  await Deno.writeTextFile(join(root, "deno.json"), "{}\n");
  await Deno.writeTextFile(join(root, "lib", "a.ts"), "export const a = 1;\n");
  await Deno.writeTextFile(join(root, "scripts", "bundle.ts"), "// the build\n");
  return root;
}

/** Runs `body`, then forgets the launch it recorded (this process's modules find their files as before). */
async function recording(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("poly.launch")];
  }
}

Deno.test("chooseProgram: no bundle folder — from source, and no code stamp taken for it", async () => {
  const root = await checkout();
  await recording(async () => {
    assert.equal(await chooseProgram(root, ["lint"]), undefined);
    assert.deepEqual(launched(), { root });
    assert.equal(sourceRoot(), join(root, "/"), "the program's files are found from the checkout main.ts chose");
  });
});

Deno.test("chooseProgram: the bundle built under the checkout's stamp runs; after an edit, the source does", async () => {
  const root = await checkout();
  await recording(async () => {
    await Deno.mkdir(join(root, BUNDLE_DIR), { recursive: true });
    assert.equal(await chooseProgram(root, ["lint"]), undefined, "a bundle folder with no bundle of this stamp");
    assert.deepEqual(launched()?.stamp, sourceStamp(root));

    const folder = await bundleFolder(root, sourceStamp(root));
    assert.equal(folder, join(root, BUNDLE_DIR, await bundleKey(root, sourceStamp(root))));
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(join(folder, BUNDLE_ENTRY), "export {};\n");
    assert.equal(await chooseProgram(root, ["lint"]), pathToFileURL(join(folder, BUNDLE_ENTRY)).href);
    assert.equal(launched()?.bundle, folder);
    for (const args of [["--version"], ["mcp"], ["hook", "agent"]]) {
      assert.equal(await chooseProgram(root, args), undefined, `${args.join(" ")}: no engines, no bundle`);
      assert.deepEqual(launched(), { root }, "and no stamp taken");
    }

    await Deno.writeTextFile(join(root, "lib", "a.ts"), "export const a = 2; // edited\n");
    assert.equal(await chooseProgram(root, ["lint"]), undefined, "an edited source file: the bundle is not its code");
    assert.equal(launched()?.bundle, undefined);
  });
});

Deno.test("bundleKey: 32 hex digits that change with the stamp and with the build script", async () => {
  const root = await checkout();
  const stamp = sourceStamp(root);
  const key = await bundleKey(root, stamp);
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.equal(await bundleKey(root, stamp), key);
  assert.notEqual(await bundleKey(root, [...stamp, "another line"]), key);
  await Deno.writeTextFile(join(root, "scripts", "bundle.ts"), "// another build, longer\n");
  assert.notEqual(await bundleKey(root, stamp), key, "a bundle is keyed by the script that built it too");
});
