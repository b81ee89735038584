/**
 * The real `poly fmt --fix` and `poly lint --fix` processes write only what they
 * may: never through a symbolic link to outside the root, never over a
 * read-only or hard-linked file, and a replaced file keeps its owner, group and
 * mode. What is not written is an errored record saying why (exit 2).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPoly } from "../_helpers/cli.ts";
import { validateReport } from "../_helpers/report_schema.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Giving a file to another user needs root: those tests are ignored otherwise. */
const NOT_ROOT = Deno.build.os === "windows" || Deno.uid() !== 0;
const POSIX = Deno.build.os === "windows";

const UGLY_PY = "x = {'a':1}\n";
const FIXABLE_PY = "import os\nimport sys\n\nprint(sys.argv)\n";
const MODES = [
  { name: "fmt --fix", args: ["fmt", "--fix"], before: UGLY_PY, after: 'x = {"a": 1}\n' },
  {
    name: "lint --fix",
    args: ["lint", "--no-workspace", "--fix"],
    before: FIXABLE_PY,
    after: "import sys\n\nprint(sys.argv)\n",
  },
];

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-fix-writes-" }));
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
  }
  return dir;
}

interface Doc {
  results: { path: string; error?: string; changed?: boolean; fixed?: number }[];
  errors: { path: string; message: string }[];
  summary: { checked: number; errored: number };
}

async function fix(args: string[], cwd: string, extra: string[] = []): Promise<{ code: number; doc: Doc }> {
  const run = await runPoly([...args, "--format", "json", ...extra], { cwd });
  assert.equal(run.stderr, "");
  const doc = JSON.parse(run.stdout);
  assert.deepEqual(validateReport(doc), []);
  return { code: run.code, doc };
}

const errorOf = (doc: Doc, path: string) => doc.errors.find((e) => e.path === path)?.message;

for (const mode of MODES) {
  Deno.test(`poly ${mode.name} never writes through a link to outside the root: errored records, exit 2`, async () => {
    const outside = await tree({ "o.py": mode.before, "lib/p.py": mode.before });
    const root = await tree({ ".git/HEAD": "", "in.py": mode.before });
    await Deno.symlink(join(outside, "lib"), join(root, "ext"));
    await Deno.symlink(join(outside, "o.py"), join(root, "f.py"));
    const { code, doc } = await fix(mode.args, root);
    assert.equal(code, 2);
    assert.equal(await Deno.readTextFile(join(outside, "o.py")), mode.before);
    assert.equal(await Deno.readTextFile(join(outside, "lib", "p.py")), mode.before);
    assert.equal(await Deno.readTextFile(join(root, "in.py")), mode.after);
    const reason = (real: string) =>
      `not written: it resolves to "${real}", outside "${root}": ` +
      "poly reads a file through a symbolic link but never writes through one to outside the root";
    assert.equal(errorOf(doc, "ext/p.py"), reason(join(outside, "lib", "p.py")));
    assert.equal(errorOf(doc, "f.py"), reason(join(outside, "o.py")));
    assert.equal(doc.summary.errored, 2);
    // Nothing is left behind beside the files outside.
    assert.deepEqual((await Array.fromAsync(Deno.readDir(outside))).map((e) => e.name).sort(), ["lib", "o.py"]);
  });

  Deno.test(`poly ${mode.name} on a link named inside the cwd refuses it; a path named outside the cwd is written`, async () => {
    const outside = await tree({ "o.py": mode.before });
    const root = await tree({ ".git/HEAD": "" });
    await Deno.symlink(join(outside, "o.py"), join(root, "f.py"));
    const named = await fix(mode.args, root, ["f.py"]);
    assert.equal(named.code, 2);
    assert.match(errorOf(named.doc, "f.py") ?? "", /^not written: it resolves to ".*o\.py", outside/);
    assert.equal(await Deno.readTextFile(join(outside, "o.py")), mode.before);
    // Named as a path outside the directory poly runs in, the file is the user's explicit choice.
    const explicit = await fix(mode.args, root, [join(outside, "o.py")]);
    assert.equal(explicit.code, 0, JSON.stringify(explicit.doc.errors));
    assert.equal(await Deno.readTextFile(join(outside, "o.py")), mode.after);
  });

  Deno.test(
    `poly ${mode.name} keeps a replaced file's owner, group and mode (skipped unless root: only root can give a file to another user)`,
    {
      ignore: NOT_ROOT,
    },
    async () => {
      const root = await tree({ ".git/HEAD": "", "theirs.py": mode.before });
      const path = join(root, "theirs.py");
      await Deno.chown(path, 65534, 65534);
      await Deno.chmod(path, 0o640);
      const { code } = await fix(mode.args, root);
      assert.equal(code, 0);
      assert.equal(await Deno.readTextFile(path), mode.after);
      const info = await Deno.stat(path);
      assert.deepEqual([info.uid, info.gid, info.mode! & 0o7777], [65534, 65534, 0o640]);
    },
  );

  Deno.test(`poly ${mode.name} does not rewrite a read-only file or a hard-linked one: errored, exit 2`, {
    ignore: POSIX,
  }, async () => {
    const root = await tree({ ".git/HEAD": "", "ro.py": mode.before, "linked.py": mode.before, "ok.py": mode.before });
    await Deno.chmod(join(root, "ro.py"), 0o444);
    const twin = join(await tree({}), "twin.py");
    await Deno.link(join(root, "linked.py"), twin);
    const { code, doc } = await fix(mode.args, root);
    assert.equal(code, 2);
    assert.equal(
      errorOf(doc, "ro.py"),
      "not written: read-only file (mode 0444): make it writable (chmod u+w) to let poly rewrite it",
    );
    assert.match(errorOf(doc, "linked.py") ?? "", /^not written: hard-linked file \(2 links\): /);
    assert.equal(await Deno.readTextFile(join(root, "ro.py")), mode.before);
    assert.equal((await Deno.stat(join(root, "ro.py"))).mode! & 0o7777, 0o444);
    assert.equal(await Deno.readTextFile(twin), mode.before);
    assert.equal((await Deno.stat(twin)).ino, (await Deno.stat(join(root, "linked.py"))).ino);
    assert.equal(await Deno.readTextFile(join(root, "ok.py")), mode.after);
    // Neither is counted as changed or fixed.
    for (const path of ["ro.py", "linked.py"]) {
      const record = doc.results.find((r) => r.path === path)!;
      assert.equal(record.changed, undefined);
      assert.equal(record.fixed, undefined);
    }
  });
}

Deno.test("poly fmt --fix says in the human summary that a file was not written", async () => {
  const root = await tree({ ".git/HEAD": "", "ro.py": UGLY_PY });
  await Deno.chmod(join(root, "ro.py"), 0o444);
  const run = await runPoly(["fmt", "--fix"], { cwd: root, env: { NO_COLOR: "1" } });
  assert.equal(run.code, 2);
  assert.match(run.stdout, /ro\.py.*not written: read-only file \(mode 0444\)/);
  assert.match(run.stdout, /0 files checked, 0 skipped, 1 errored/);
});
