/**
 * lib/fs/atomic.ts: the one place poly replaces a file. replaceFile() writes
 * inside its roots only (after links are resolved), leaves a file changed since
 * it was read alone, keeps owner, group and mode, and refuses read-only and
 * hard-linked files; writeFileAtomic() keeps an existing file's mode and owner.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileStamp, replaceFile, writeFileAtomic, WriteRefusedError } from "../../lib/fs/atomic.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Giving a file to another user needs root: those tests are ignored otherwise (Deno prints them as ignored). */
const NOT_ROOT = Deno.build.os === "windows" || Deno.uid() !== 0;
/** Windows has no POSIX modes or hard-link counts to check. */
const POSIX = Deno.build.os === "windows";

/** A file as poly reads it: its stamp (stat first), then its text. */
async function read(path: string): Promise<{ stamp: ReturnType<typeof fileStamp>; content: string }> {
  const stamp = fileStamp(await Deno.stat(path));
  return { stamp, content: await Deno.readTextFile(path) };
}

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-atomic-" }));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

async function leftovers(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n.endsWith(".tmp"));
}

Deno.test("replaceFile() replaces a file read earlier and leaves no temporary file", async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  await replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] });
  assert.equal(await Deno.readTextFile(path), "x = 1\n");
  assert.deepEqual(await leftovers(dir), []);
});

Deno.test("replaceFile() writes a file whose name starts with two dots (inside the root, not above it)", async () => {
  const dir = await tree({ "..a.py": "x=1\n" });
  const path = join(dir, "..a.py");
  await replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] });
  assert.equal(await Deno.readTextFile(path), "x = 1\n");
});

Deno.test("replaceFile() writes through a link to a file inside the root, keeping the link", async () => {
  const dir = await tree({ "real.py": "x=1\n" });
  await Deno.symlink("real.py", join(dir, "link.py"));
  const path = join(dir, "link.py");
  await replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] });
  assert.equal(await Deno.readTextFile(join(dir, "real.py")), "x = 1\n");
  assert.ok((await Deno.lstat(path)).isSymlink);
});

Deno.test("replaceFile() refuses a file link and a directory link that resolve outside the root", async () => {
  const outside = await tree({ "o.py": "x=1\n", "lib/p.py": "y=2\n" });
  const root = await tree({});
  await Deno.symlink(join(outside, "o.py"), join(root, "f.py"));
  await Deno.symlink(join(outside, "lib"), join(root, "lib"));
  for (const [name, real] of [["f.py", "o.py"], ["lib/p.py", "lib/p.py"]]) {
    const path = join(root, name);
    const expected = await read(path);
    await assert.rejects(
      replaceFile(path, "changed\n", { expected, roots: [root] }),
      (e: Error) => {
        assert.ok(e instanceof WriteRefusedError, String(e));
        assert.equal(
          e.message,
          `it resolves to "${join(outside, real)}", outside "${root}": ` +
            "poly reads a file through a symbolic link but never writes through one to outside the root",
        );
        return true;
      },
    );
    assert.equal(await Deno.readTextFile(join(outside, real)), expected.content);
  }
  assert.deepEqual(await leftovers(outside), []);
  assert.deepEqual(await leftovers(join(outside, "lib")), []);
});

Deno.test("replaceFile() refuses when the file's directory is swapped for a link to outside before the rename", async () => {
  const outside = await tree({});
  const root = await tree({ "sub/a.py": "x=1\n" });
  const path = join(root, "sub", "a.py");
  await assert.rejects(
    replaceFile(path, "x = 1\n", {
      expected: await read(path),
      roots: [root],
      beforeCheck: async () => {
        await Deno.rename(join(root, "sub"), join(outside, "sub"));
        await Deno.symlink(join(outside, "sub"), join(root, "sub"));
      },
    }),
    (e: Error) =>
      e instanceof WriteRefusedError &&
      e.message === "changed during the run (its directory was replaced by a symbolic link)",
  );
  assert.equal(await Deno.readTextFile(join(outside, "sub", "a.py")), "x=1\n");
  assert.deepEqual(await leftovers(join(outside, "sub")), []);
});

Deno.test("replaceFile() leaves a file edited after it was read alone: changed during the run", async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  const expected = await read(path);
  await assert.rejects(
    replaceFile(path, "x = 1\n", {
      expected,
      roots: [dir],
      // Someone appends a line between poly's read and its write.
      beforeCheck: () => Deno.writeTextFile(path, "y=2\n", { append: true }),
    }),
    (e: Error) =>
      e instanceof WriteRefusedError && /^changed during the run \(edited after poly read it\)/.test(e.message),
  );
  assert.equal(await Deno.readTextFile(path), "x=1\ny=2\n");
  assert.deepEqual(await leftovers(dir), []);
});

Deno.test("replaceFile() notices an edit of the same size within the same mtime (the bytes differ)", async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  const expected = await read(path);
  const mtime = (await Deno.stat(path)).mtime!;
  await Deno.writeTextFile(path, "x=2\n");
  await Deno.utime(path, mtime, mtime);
  await assert.rejects(
    replaceFile(path, "x = 1\n", { expected, roots: [dir] }),
    (e: Error) => e instanceof WriteRefusedError && e.message.startsWith("changed during the run"),
  );
  assert.equal(await Deno.readTextFile(path), "x=2\n");
});

Deno.test("replaceFile() refuses a file removed since it was read", async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  const expected = await read(path);
  await Deno.remove(path);
  await assert.rejects(
    replaceFile(path, "x = 1\n", { expected, roots: [dir] }),
    (e: Error) => e instanceof WriteRefusedError && e.message === "changed during the run (it was removed)",
  );
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
});

Deno.test("replaceFile() keeps the mode of the file it replaces", { ignore: POSIX }, async () => {
  const dir = await tree({ "a.sh": "echo  hi\n" });
  const path = join(dir, "a.sh");
  await Deno.chmod(path, 0o750);
  await replaceFile(path, "echo hi\n", { expected: await read(path), roots: [dir] });
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o750);
});

Deno.test(
  "replaceFile() keeps another user's owner and group (skipped unless root: only root can give a file to another user)",
  { ignore: NOT_ROOT },
  async () => {
    const dir = await tree({ "a.py": "x=1\n" });
    const path = join(dir, "a.py");
    await Deno.chown(path, 65534, 65534);
    await Deno.chmod(path, 0o640);
    await replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] });
    const info = await Deno.stat(path);
    assert.deepEqual([info.uid, info.gid, info.mode! & 0o7777], [65534, 65534, 0o640]);
    assert.equal(await Deno.readTextFile(path), "x = 1\n");
  },
);

Deno.test("replaceFile() refuses a read-only file (no write bit for its owner)", { ignore: POSIX }, async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  await Deno.chmod(path, 0o444);
  await assert.rejects(
    replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] }),
    (e: Error) =>
      e instanceof WriteRefusedError &&
      e.message === "read-only file (mode 0444): make it writable (chmod u+w) to let poly rewrite it",
  );
  assert.equal(await Deno.readTextFile(path), "x=1\n");
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o444);
});

Deno.test("replaceFile() refuses a hard-linked file rather than split its links", { ignore: POSIX }, async () => {
  const dir = await tree({ "a.py": "x=1\n" });
  const path = join(dir, "a.py");
  await Deno.link(path, join(dir, "other.py"));
  await assert.rejects(
    replaceFile(path, "x = 1\n", { expected: await read(path), roots: [dir] }),
    (e: Error) => e instanceof WriteRefusedError && e.message.startsWith("hard-linked file (2 links): "),
  );
  const [a, b] = [await Deno.stat(path), await Deno.stat(join(dir, "other.py"))];
  assert.equal(a.ino, b.ino);
  assert.equal(await Deno.readTextFile(join(dir, "other.py")), "x=1\n");
});

Deno.test(
  "writeFileAtomic() keeps an existing file's owner, group and mode (skipped unless root: only root can give a file to another user)",
  {
    ignore: NOT_ROOT,
  },
  async () => {
    const dir = await tree({ "state.json": "{}" });
    const path = join(dir, "state.json");
    await Deno.chown(path, 65534, 65534);
    await Deno.chmod(path, 0o640);
    await writeFileAtomic(path, '{"v":1}');
    const info = await Deno.stat(path);
    assert.deepEqual([info.uid, info.gid, info.mode! & 0o7777], [65534, 65534, 0o640]);
  },
);

Deno.test("writeFileAtomic() gives a new file the mode asked for", { ignore: POSIX }, async () => {
  const dir = await tree({});
  const path = join(dir, "secret");
  await writeFileAtomic(path, "x", { mode: 0o600 });
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o600);
});
