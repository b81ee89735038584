import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { discover } from "../../lib/discover/mod.ts";
import { describe, makeTree } from "./_tree.ts";

Deno.test("discover() a directory link back to an ancestor is a skip, and the walk ends", async () => {
  const root = await makeTree({ "a/x.py": "" });
  await Deno.symlink("..", join(root, "a", "up"));
  await Deno.symlink(".", join(root, "here"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    'a/up skip: symbolic link loop: it points to ".", a directory that contains it',
    "a/x.py python",
    'here skip: symbolic link loop: it points to ".", a directory that contains it',
  ]);
});

Deno.test("discover() mutual directory links never hang", async () => {
  const root = await makeTree({ "a/x.py": "", "b/y.py": "" });
  await Deno.symlink("../b", join(root, "a", "to_b"));
  await Deno.symlink("../a", join(root, "b", "to_a"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    'a/to_b skip: symbolic link to "b", which is already discovered under that name',
    "a/x.py python",
    'b/to_a skip: symbolic link to "a", which is already discovered under that name',
    "b/y.py python",
  ]);
});

Deno.test("discover() real directory names win over links that sort first", async () => {
  const root = await makeTree({ "z_real/x.py": "" });
  await Deno.symlink("z_real", join(root, "a_link"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    'a_link skip: symbolic link to "z_real", which is already discovered under that name',
    "z_real/x.py python",
  ]);
});

Deno.test("discover() follows a link to a directory outside the tree", async () => {
  const outside = await makeTree({ "lib/ext.py": "" });
  const root = await makeTree({ "a.py": "" });
  await Deno.symlink(join(outside, "lib"), join(root, "vendor"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["a.py python", "vendor/ext.py python"]);
});

Deno.test("discover() a file link to a file in the tree is a skip; an outside one is followed", async () => {
  const outside = await makeTree({ "shared.py": "" });
  const root = await makeTree({ "v2.py": "" });
  await Deno.symlink("v2.py", join(root, "latest.py"));
  await Deno.symlink(join(outside, "shared.py"), join(root, "shared.py"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    'latest.py skip: symbolic link to "v2.py", which is checked under that name',
    "shared.py python",
    "v2.py python",
  ]);
  // Named explicitly, a link is processed as asked.
  deepEqual(describe(await discover({ cwd: root, paths: ["latest.py"] })), ["latest.py python (explicit)"]);
});

Deno.test("discover() dangling and self-referencing links are skips with reasons", async () => {
  const root = await makeTree({ "a.py": "" });
  await Deno.symlink("nowhere.py", join(root, "gone.py"));
  await Deno.symlink("self.py", join(root, "self.py"));
  const expected = [
    "a.py python",
    'gone.py skip: dangling symbolic link (its target "nowhere.py" does not exist)',
    "self.py skip: symbolic link loop: the link resolves to itself",
  ];
  deepEqual(describe(await discover({ cwd: root, paths: [] })), expected);
  deepEqual(describe(await discover({ cwd: root, paths: ["a.py", "gone.py", "self.py"] })), [
    "a.py python (explicit)",
    ...expected.slice(1),
  ]);
});

Deno.test("discover() an ignored dangling link stays silent", async () => {
  const root = await makeTree({ ".gitignore": "gone.py\n", "a.py": "" });
  await Deno.symlink("nowhere.py", join(root, "gone.py"));
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["a.py python"]);
});

Deno.test("discover() walks the first of two links to one outside directory, by path, every time", async () => {
  const outside = await makeTree({ "lib/ext.py": "" });
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`d${i}/f${i}.py`] = "";
  const root = await makeTree(files);
  await Deno.symlink(join(outside, "lib"), join(root, "d7", "z_link"));
  await Deno.symlink(join(outside, "lib"), join(root, "d13", "a_link"));
  const expected = describe(await discover({ cwd: root, paths: [] }));
  equal(expected.includes("d13/a_link/ext.py python"), true);
  equal(
    expected.includes('d7/z_link skip: symbolic link to "d13/a_link", which is already discovered under that name'),
    true,
  );
  for (let run = 0; run < 5; run++) deepEqual(describe(await discover({ cwd: root, paths: [] })), expected);
});
