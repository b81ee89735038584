/**
 * lib/fs/executable.ts: the one PATH lookup. findExecutable() finds a program with
 * an execute bit on a PATH (poly's own or the one given) and a path as given;
 * nothing else in lib/ searches PATH.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { findExecutable } from "../../lib/fs/executable.ts";
import { REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const POSIX = Deno.build.os !== "windows";

async function bin(dir: string, name: string, mode = 0o755): Promise<string> {
  const path = join(dir, name);
  await Deno.writeTextFile(path, "#!/bin/sh\n");
  await Deno.chmod(path, mode);
  return path;
}

Deno.test({
  name: "findExecutable() searches the PATH given, in order, for a file with an execute bit",
  ignore: !POSIX,
  fn: async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    await bin(a, "tool", 0o644);
    const found = await bin(b, "tool");
    assert.equal(findExecutable("tool", `${a}:${b}`), found, "the one without an execute bit is passed over");
    assert.equal(findExecutable("absent-tool", `${a}:${b}`), undefined);
    assert.equal(findExecutable("tool", undefined), undefined, "given as undefined: an environment without PATH");
    assert.equal(findExecutable("tool", ""), undefined);
  },
});

Deno.test({
  name: "findExecutable() without a PATH searches poly's own, and takes a name with a slash as a path",
  ignore: !POSIX,
  fn: async () => {
    assert.equal(findExecutable("sh"), findExecutable("sh", Deno.env.get("PATH")));
    assert.ok(findExecutable("sh")?.endsWith("/sh"));
    const dir = await tempDir();
    const tool = await bin(dir, "tool");
    assert.equal(findExecutable(tool, ""), tool);
    assert.equal(findExecutable(relative(Deno.cwd(), tool), ""), tool, "relative to the working directory");
    assert.equal(findExecutable(join(dir, "missing"), ""), undefined);
  },
});

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("no module but lib/fs/executable.ts looks for programs on PATH", async () => {
  // An execute-bit test on a found file is the tell of a PATH search. lib/hooks/git/install.ts
  // checks the mode of the hook script it wrote itself, which is no search.
  const own = new Set(["lib/fs/executable.ts", "lib/hooks/git/install.ts"]);
  const searches: string[] = [];
  for (const top of ["lib", "tools", "tui"]) {
    for await (const path of sources(join(REPO, top))) {
      const rel = relative(REPO, path);
      if (!own.has(rel) && /0o111/.test(await Deno.readTextFile(path))) searches.push(rel);
    }
  }
  assert.deepEqual(searches, [], "use findExecutable() from lib/fs/executable.ts");
});
