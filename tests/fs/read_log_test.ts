/**
 * lib/fs/read_log.ts: what a stretch of work read, as stat lines a later process
 * can take again. Every reading function of Deno is seen while a log is open and
 * none after; a path keeps the line it had before it was first read, and one
 * changed just before the work makes the log prove nothing; a temporary folder
 * the work makes for itself is not a read;
 * and unchanged() notices every kind of change a replay depends on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { asFileRead, ReadLog, refuseOpenLogs, sightOf, unchanged } from "../../lib/fs/read_log.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Longer than the coarse clock the kernel stamps files from (a tick of up to 10 ms). */
const TICK = 30;

/** Accepts files made by the test itself a moment ago (the default margin refuses anything changed in the last 2.5 s). */
const FRESH = -60_000;

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await tempDir({ prefix: "poly-readlog-" }));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

function logged(log: ReadLog): string[] {
  const settled = log.settle(FRESH);
  assert.ok("lines" in settled, JSON.stringify(settled));
  return settled.lines.map(([path]) => path);
}

Deno.test("every reading function is logged while a log is open, and Deno's own functions come back after", async () => {
  const dir = await tree({ "a.txt": "a", "b.txt": "b", "c/d.txt": "d", "e.txt": "e", "f.txt": "f", "g.txt": "g" });
  const before = Deno.stat;
  const log = ReadLog.open();
  try {
    assert.notEqual(Deno.stat, before);
    await Deno.stat(join(dir, "a.txt"));
    Deno.readTextFileSync(join(dir, "b.txt"));
    for await (const _ of Deno.readDir(join(dir, "c"))) { /* listed */ }
    (await Deno.open(join(dir, "e.txt"))).close();
    await Deno.readFile(join(dir, "f.txt"));
    await Deno.realPath(join(dir, "g.txt"));
    await Deno.stat(join(dir, "absent")).catch(() => {});
    // Writing is not reading.
    (await Deno.open(join(dir, "w.txt"), { write: true, create: true })).close();
  } finally {
    log.close();
  }
  assert.equal(Deno.stat, before);
  await Deno.stat(join(dir, "b.txt")); // after close: not logged
  assert.deepEqual(logged(log), ["a.txt", "absent", "b.txt", "c", "e.txt", "f.txt", "g.txt"].map((n) => join(dir, n)));
});

Deno.test("two open logs both see a read; closing one leaves the other logging", async () => {
  const dir = await tree({ "a.txt": "a", "b.txt": "b" });
  const one = ReadLog.open();
  const two = ReadLog.open();
  await Deno.stat(join(dir, "a.txt"));
  one.close();
  await Deno.stat(join(dir, "b.txt"));
  two.close();
  assert.deepEqual(logged(one), [join(dir, "a.txt")]);
  assert.deepEqual(logged(two), [join(dir, "a.txt"), join(dir, "b.txt")]);
});

Deno.test("paths under an excluded folder and the work's own temporary folders are not reads", async () => {
  const dir = await tree({ "own/state.db": "x", "a.txt": "a" });
  const log = ReadLog.open({ exclude: [join(dir, "own")] });
  try {
    await Deno.stat(join(dir, "own", "state.db"));
    await Deno.stat(join(dir, "own")); // the folder itself too: poly's stores change with every run
    await Deno.stat(join(dir, "own-not")).catch(() => {}); // a name that only starts the same is a read
    const tmp = await tempDir({ prefix: "poly-readlog-own-" });
    await Deno.writeTextFile(join(tmp, "report.json"), "{}");
    await Deno.readTextFile(join(tmp, "report.json"));
    await Deno.writeTextFile(join(tmp, "report.json"), "{ }"); // changed during the work: its own file
    await Deno.remove(tmp, { recursive: true });
    await Deno.stat(join(dir, "a.txt"));
  } finally {
    log.close();
  }
  assert.deepEqual(logged(log), [join(dir, "a.txt"), join(dir, "own-not")]);
});

Deno.test("a file changed during the work keeps its first line; one changed just before, or a refusal, proves nothing", async () => {
  const dir = await tree({ "a.txt": "a" });
  const during = ReadLog.open();
  await Deno.readTextFile(join(dir, "a.txt"));
  await new Promise((resolve) => setTimeout(resolve, TICK));
  await Deno.writeTextFile(join(dir, "a.txt"), "changed");
  during.close();
  const settled = during.settle(FRESH);
  assert.ok("lines" in settled);
  // The line from before the read: the next lookup sees the change, whatever the clocks say.
  assert.equal(unchanged(settled.lines), false);

  const fresh = ReadLog.open();
  await Deno.readTextFile(join(dir, "a.txt"));
  fresh.close();
  // Written a moment ago: within RACY_MS a file system's timestamps may not tell two writes apart.
  assert.deepEqual(fresh.settle(), { refused: `${join(dir, "a.txt")} changed just before or during the run` });

  const refused = ReadLog.open();
  refused.refuse("the cache is off");
  refused.refuse("a second reason");
  refused.close();
  assert.deepEqual(refused.settle(FRESH), { refused: "the cache is off" });

  // What no read shows refuses every open log (a program asked its version every run); a closed one keeps its lines.
  const closed = ReadLog.open();
  closed.close();
  const open = ReadLog.open();
  refuseOpenLogs("shellcheck's version is asked of it every run");
  open.close();
  assert.deepEqual(open.settle(FRESH), { refused: "shellcheck's version is asked of it every run" });
  assert.ok("lines" in closed.settle(FRESH));
});

Deno.test("unchanged() notices an edit, a creation, a removal, a new entry in a folder, a mode and a link's new target", async () => {
  const dir = await tree({ "a.txt": "a", "sub/b.txt": "b", "x.txt": "x", "y.txt": "y" });
  await Deno.symlink(join(dir, "x.txt"), join(dir, "link"));
  const paths = ["a.txt", "sub/b.txt", "sub", "missing", "link"].map((p) => join(dir, p));
  const lines = (): [string, string][] => paths.map((p) => [p, sightOf(p).line]);
  const changes: [string, () => Promise<void>][] = [
    ["an edit of the same size", () => Deno.writeTextFile(join(dir, "a.txt"), "A")],
    ["a file created where none was", () => Deno.writeTextFile(join(dir, "missing"), "")],
    ["a file removed", () => Deno.remove(join(dir, "sub", "b.txt"))],
    ["an entry added to a listed folder", () => Deno.writeTextFile(join(dir, "sub", "c.txt"), "")],
    ["a mode changed", () => Deno.chmod(join(dir, "a.txt"), 0o600)],
    ["a link pointed elsewhere", async () => {
      await Deno.remove(join(dir, "link"));
      await Deno.symlink(join(dir, "y.txt"), join(dir, "link"));
    }],
    ["a link's target edited", () => Deno.writeTextFile(join(dir, "y.txt"), "yy")],
  ];
  for (const [what, change] of changes) {
    const before = lines();
    assert.ok(unchanged(before), `${what}: unchanged before`);
    // The kernel stamps files from a coarse clock (a tick of up to 10 ms): a change within the tick keeps the mtime.
    await new Promise((resolve) => setTimeout(resolve, TICK));
    await change();
    assert.ok(!unchanged(before), what);
  }
});

Deno.test("a run's own files are those named so that nothing read but as a file of the run (a stat is no read)", async () => {
  const dir = await tree({ "a.js": "a", "b.js": "b", "c.js": "c", "d.js": "d" });
  const [a, b, c, d] = ["a.js", "b.js", "c.js", "d.js"].map((n) => join(dir, n));
  const log = ReadLog.open();
  try {
    for (const path of [a, b, c, d]) log.file(path);
    asFileRead(() => Deno.readFileSync(a));
    await Deno.stat(a);
    asFileRead(() => Deno.readTextFileSync(b));
    Deno.readTextFileSync(b); // read again by something else (a configuration reader, say): more than a file of the run
    Deno.statSync(c); // stat-ed only: still the run's own
    await Deno.realPath(d); // more than a stat
  } finally {
    log.close();
  }
  const settled = log.settle(FRESH);
  assert.ok("lines" in settled);
  assert.deepEqual(settled.files.map((i) => settled.lines[i][0]), [a, c]);
});

Deno.test("adopt() takes a kept run's lines and own files in; a path read again with another line refuses the log", async () => {
  const dir = await tree({ "a.js": "a", "b.js": "b", "c.js": "c" });
  const [a, b, c] = ["a.js", "b.js", "c.js"].map((n) => join(dir, n));
  const kept: [string, string][] = [[a, "old-a"], [b, sightOf(b).line], [c, "old-c"]];
  // a changed (read again here, its new line kept), b was kept as it is, c is kept unread here.
  const log = ReadLog.open();
  asFileRead(() => Deno.readFileSync(a));
  Deno.readFileSync(a); // the run of the changed file named it as an explicit path: still the kept run's own file
  asFileRead(() => Deno.readFileSync(b));
  log.close();
  log.adopt(kept, [0, 1, 2], new Set([a]));
  const settled = log.settle(FRESH);
  assert.ok("lines" in settled, JSON.stringify(settled));
  assert.deepEqual(settled.lines, [[a, sightOf(a).line], [b, sightOf(b).line], [c, "old-c"]]);
  assert.deepEqual(settled.files, [0, 1, 2]);
  // b read here with another line than the kept one: it changed since the kept run was looked up.
  const other = ReadLog.open();
  Deno.readFileSync(b);
  other.close();
  other.adopt([[b, "old-b"]], [0], new Set());
  assert.deepEqual(other.settle(FRESH), { refused: `${b} changed during the run` });
});
