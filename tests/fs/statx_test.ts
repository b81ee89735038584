/**
 * lib/fs/statx.ts: on Linux a path's stat through libc's `statx` gives the
 * fields Deno's `lstatSync` and `statSync` give for the same entry (so a read
 * log's line, and the code stamp's, is the same whichever made it), and it
 * leaves to Deno what it cannot answer as Deno would: a link not followed, a
 * missing path, a path with a NUL.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { statx } from "../../lib/fs/statx.ts";
import { tempDir } from "../_helpers/temp.ts";

const LINUX = Deno.build.os === "linux";

/** Deno's fields, as `statx` gives them. */
function denoFields(info: Deno.FileInfo) {
  return {
    ino: BigInt(info.ino!),
    mode: info.mode!,
    size: BigInt(info.size),
    ...(info.mtime ? { mtime: info.mtime.getTime() } : {}),
    ...(info.ctime ? { ctime: info.ctime.getTime() } : {}),
  };
}

async function tree(): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-statx-" }));
  await Deno.mkdir(join(dir, "sub dir/é"), { recursive: true });
  await Deno.writeTextFile(join(dir, "a.txt"), "a");
  await Deno.writeTextFile(join(dir, "sub dir/é/b.ts"), "x".repeat(70_000));
  await Deno.writeTextFile(join(dir, "empty"), "");
  await Deno.symlink("a.txt", join(dir, "link"));
  await Deno.symlink("missing", join(dir, "dangling"));
  // An hour in the past with a fraction of a millisecond: truncated as Deno truncates it.
  await Deno.utime(join(dir, "a.txt"), 1_700_000_000.1234567, 1_700_000_000.9876543);
  return dir;
}

Deno.test({
  name: "files and folders: the fields Deno gives, from lstat and from stat",
  ignore: !LINUX,
  fn: async () => {
    const dir = await tree();
    for (const name of ["a.txt", "empty", "sub dir", "sub dir/é", "sub dir/é/b.ts", "."]) {
      const path = join(dir, name);
      assert.deepEqual(statx(path), denoFields(Deno.lstatSync(path)), `lstat of ${name}`);
      assert.deepEqual(statx(path, true), denoFields(Deno.statSync(path)), `stat of ${name}`);
    }
    assert.equal(statx(join(dir, "a.txt"))?.mtime, 1_700_000_000_987, "mtime in ms, truncated");
  },
});

Deno.test({
  name: "a relative path is taken from the process's directory, as Deno takes it",
  ignore: !LINUX,
  fn: async () => {
    const dir = await tree();
    const cwd = Deno.cwd();
    Deno.chdir(dir);
    try {
      assert.deepEqual(statx("sub dir/é/b.ts"), denoFields(Deno.lstatSync("sub dir/é/b.ts")));
    } finally {
      Deno.chdir(cwd);
    }
  },
});

Deno.test({
  name: "a link is Deno's to describe unless followed; followed, it is its target",
  ignore: !LINUX,
  fn: async () => {
    const dir = await tree();
    assert.equal(statx(join(dir, "link")), undefined);
    assert.deepEqual(statx(join(dir, "link"), true), denoFields(Deno.statSync(join(dir, "a.txt"))));
    assert.equal(statx(join(dir, "dangling")), undefined);
    assert.equal(statx(join(dir, "dangling"), true), undefined);
  },
});

Deno.test("what fails, or cannot be named to libc, is left to Deno (which names its error)", async () => {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-statx-" }));
  assert.equal(statx(join(dir, "missing")), undefined);
  assert.equal(statx(join(dir, "missing/below")), undefined);
  assert.equal(statx(`${dir}\0/x`), undefined);
  assert.equal(statx(`${dir}/${"x".repeat(5000)}`), undefined);
  if (!LINUX) assert.equal(statx(dir), undefined, "elsewhere Deno's own stat answers");
});
