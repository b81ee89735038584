/**
 * The build stamp: git describe and the release/dev channel rule, the text
 * written into lib/identity/_stamp.ts, and its restoration after the build,
 * whether the build succeeds or throws.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "../_helpers/cli.ts";
import {
  gitFacts,
  parseStamp,
  SOURCE_STAMP,
  StaleStampError,
  stampFor,
  stampSource,
  withStamp,
} from "../../scripts/_build_stamp.ts";
import { tempDir } from "../_helpers/temp.ts";

const STAMP_FILE = join(REPO, "lib", "identity", "_stamp.ts");

Deno.test("the committed _stamp.ts holds the from-source stamp", async () => {
  deepEqual(parseStamp(await Deno.readTextFile(STAMP_FILE)), SOURCE_STAMP);
  deepEqual(parseStamp(stampSource(SOURCE_STAMP)), SOURCE_STAMP);
});

Deno.test("stampSource() writes a module exporting the stamp, whatever the build id holds", async () => {
  const dir = await tempDir({ prefix: "poly-stamp-" });
  try {
    const stamp = { buildId: 'v1.2.3-4-gabc"; evil()', channel: "dev" as const };
    const path = join(dir, "_stamp.ts");
    await Deno.writeTextFile(path, stampSource(stamp));
    const mod = await import(pathToFileURL(path).href);
    deepEqual(mod.STAMP, stamp);
    deepEqual(parseStamp(stampSource(stamp)), stamp);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stampFor(): release only for a clean checkout exactly at v<version>", () => {
  const at = (describe: string | undefined, tags: string[], clean: boolean) =>
    stampFor("1.2.3", { describe, tagsAtHead: tags, clean });
  deepEqual(at("v1.2.3", ["v1.2.3"], true), { buildId: "v1.2.3", channel: "release" });
  deepEqual(at("v1.2.3-dirty", ["v1.2.3"], false), { buildId: "v1.2.3-dirty", channel: "dev" });
  deepEqual(at("v1.2.2-3-gabcdef0", [], true), { buildId: "v1.2.2-3-gabcdef0", channel: "dev" });
  deepEqual(at("v1.2.4", ["v1.2.4"], true), { buildId: "v1.2.4", channel: "dev" }, "tag of another version");
  deepEqual(at("1.2.3", ["1.2.3"], true), { buildId: "1.2.3", channel: "dev" }, "tag without the v");
  deepEqual(at(undefined, [], false), { buildId: "unknown", channel: "dev" }, "not a git checkout");
});

async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test("gitFacts(): describe, tags at HEAD and cleanliness of a real checkout", async () => {
  const dir = await tempDir({ prefix: "poly-stamp-git-" });
  try {
    await git(dir, "init", "-q");
    await Deno.writeTextFile(join(dir, "a.txt"), "a\n");
    await git(dir, "add", "a.txt");
    await git(dir, "commit", "-qm", "one");
    await git(dir, "tag", "-a", "v0.3.0", "-m", "v0.3.0");
    const tagged = await gitFacts(dir);
    deepEqual(tagged, { describe: "v0.3.0", tagsAtHead: ["v0.3.0"], clean: true });
    deepEqual(stampFor("0.3.0", tagged), { buildId: "v0.3.0", channel: "release" });

    await Deno.writeTextFile(join(dir, "untracked.txt"), "u\n");
    const untracked = await gitFacts(dir);
    equal(untracked.clean, false);
    equal(stampFor("0.3.0", untracked).channel, "dev", "an untracked file could be embedded: not a release");
    await Deno.remove(join(dir, "untracked.txt"));

    await Deno.writeTextFile(join(dir, "a.txt"), "changed\n");
    const dirty = await gitFacts(dir);
    deepEqual(stampFor("0.3.0", dirty), { buildId: "v0.3.0-dirty", channel: "dev" });
    await git(dir, "commit", "-qam", "two");
    const after = await gitFacts(dir);
    ok(/^v0\.3\.0-1-g[0-9a-f]+$/.test(after.describe!), after.describe);
    equal(stampFor("0.3.0", after).channel, "dev");

    const notGit = await tempDir({ prefix: "poly-stamp-nogit-" });
    deepEqual(stampFor("0.3.0", await gitFacts(notGit)), { buildId: "unknown", channel: "dev" });
    await Deno.remove(notGit, { recursive: true });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function stampCopy(): Promise<{ dir: string; path: string; original: string }> {
  const dir = await tempDir({ prefix: "poly-stamp-copy-" });
  const path = join(dir, "_stamp.ts");
  const original = await Deno.readTextFile(STAMP_FILE);
  await Deno.writeTextFile(path, original);
  return { dir, path, original };
}

Deno.test("withStamp() stamps for the build and restores the from-source file afterwards", async () => {
  const { dir, path, original } = await stampCopy();
  try {
    const stamp = { buildId: "v9.9.9", channel: "release" as const };
    const seen = await withStamp(path, stamp, async () => parseStamp(await Deno.readTextFile(path)));
    deepEqual(seen, stamp, "the build sees the stamp");
    equal(await Deno.readTextFile(path), original);
    deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["_stamp.ts"], "no temporary file left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withStamp() restores the file when the build throws", async () => {
  const { dir, path, original } = await stampCopy();
  try {
    await rejects(
      withStamp(path, { buildId: "x", channel: "dev" }, () => Promise.reject(new Error("compile failed"))),
      /compile failed/,
    );
    equal(await Deno.readTextFile(path), original);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withStamp() refuses a stamp left behind by an interrupted build", async () => {
  const { dir, path } = await stampCopy();
  try {
    const left = stampSource({ buildId: "v0.0.1-dirty", channel: "dev" });
    await Deno.writeTextFile(path, left);
    let ran = false;
    await rejects(
      withStamp(path, { buildId: "x", channel: "dev" }, () => Promise.resolve(ran = true)),
      (e) => e instanceof StaleStampError && /git checkout -- /.test(e.message),
    );
    equal(ran, false);
    equal(await Deno.readTextFile(path), left, "left as found");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "withStamp() restores the file when the build is interrupted (SIGINT)",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { dir, path, original } = await stampCopy();
    try {
      const module = pathToFileURL(join(REPO, "scripts", "_build_stamp.ts")).href;
      const code = `import { withStamp } from ${JSON.stringify(module)};
await withStamp(${JSON.stringify(path)}, { buildId: "v1.0.0", channel: "release" }, async () => {
  console.log("stamped");
  await new Promise(() => setInterval(() => {}, 1000));
});`;
      const child = new Deno.Command(Deno.execPath(), {
        args: ["eval", "-q", code],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const first = await reader.read();
      equal(first.value?.trim(), "stamped");
      ok((await Deno.readTextFile(path)).includes("v1.0.0"), "stamped while building");
      child.kill("SIGINT");
      const status = await child.status;
      await reader.cancel();
      await child.stderr.cancel();
      equal(status.code, 130);
      equal(await Deno.readTextFile(path), original, "restored on interrupt");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
