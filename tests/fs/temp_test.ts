/**
 * poly's private temporary folders (lib/fs/temp.ts): the OS temporary directory, or poly's own `tmp/` in its cache
 * home when the OS one refuses — a `TMPDIR` below `/dev` (which Deno opens only to a program allowed everything), or
 * one that does not exist.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { inProcessWith } from "../_helpers/isolated.ts";
import { runPoly } from "../_helpers/cli.ts";
import { missing } from "../engines/_harness.ts";
import { tempDir } from "../_helpers/temp.ts";
import { makeTempDir } from "../../lib/fs/temp.ts";

/** Where each of the three functions makes its folder or file, in a process with `TMPDIR` set to `tmp`. */
async function placesWith(tmp: string, home: string): Promise<unknown> {
  return await inProcessWith(
    { TMPDIR: tmp, POLY_CACHE_HOME: home },
    `
    const { makeTempDir, makeTempDirSync, makeTempFile } = await import(REPO + "/lib/fs/temp.ts");
    const made = [await makeTempDir("poly-a-"), makeTempDirSync("poly-b-"), await makeTempFile("poly-c-")];
    for (const path of made) Deno.removeSync(path, { recursive: true });
    console.log(JSON.stringify(made.map((path) => path.slice(0, path.lastIndexOf("/")))));
  `,
  );
}

Deno.test("makeTempDir() makes its folder in the OS temporary directory when it can", async () => {
  const path = await makeTempDir("poly-temp-test-");
  try {
    equal(dirname(path), dirname(await tempDir()));
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a TMPDIR poly cannot make a folder in sends its temporary folders and files to its cache home", async () => {
  const home = await tempDir({ prefix: "poly-temp-home-" });
  const own = join(home, "tmp");
  deepEqual(await placesWith(join(home, "missing"), home), [own, own, own]);
  if (Deno.build.os === "linux") deepEqual(await placesWith("/dev/shm", home), [own, own, own]);
});

const noShellcheck = await missing("shellcheck", "poly lint with an unusable TMPDIR");

Deno.test({
  name: "poly lint and poly fmt with a TMPDIR poly cannot use: every engine still runs, nothing is left behind",
  ignore: noShellcheck,
  async fn() {
    const tree = await Deno.realPath(await tempDir({ prefix: "poly-temp-tree-" }));
    await Deno.mkdir(join(tree, ".git"));
    await Deno.writeTextFile(join(tree, "run.sh"), "#!/bin/sh\necho $1\n");
    await Deno.writeTextFile(join(tree, "a.js"), "export function f(a) {\n  debugger;\n  return a;\n}\n");
    const home = await tempDir({ prefix: "poly-temp-home-" });
    const env = { TMPDIR: join(tree, "no such folder"), POLY_CACHE_HOME: home };
    const lint = await runPoly(["lint", "--format", "json", "--no-cache"], { cwd: tree, env });
    const report = JSON.parse(lint.stdout);
    deepEqual(report.errors, [], lint.stderr);
    const codes = report.results.flatMap((r: { diagnostics?: { code: string }[] }) => r.diagnostics ?? [])
      .map((d: { code: string }) => d.code);
    ok(codes.includes("SC2086"), `shellcheck ran: ${codes}`);
    ok(codes.includes("suspicious/noDebugger"), `biome ran: ${codes}`);
    const fmt = await runPoly(["fmt", "--check", "--format", "json", "--no-cache"], { cwd: tree, env });
    deepEqual(JSON.parse(fmt.stdout).errors, [], fmt.stderr);
    deepEqual([...Deno.readDirSync(join(home, "tmp"))], [], "every private folder removed");
  },
});
