/**
 * lib/daemon/client.ts against a daemon that speaks the wire protocol (a
 * listener in this process): what it sends for stdout and stderr reaches the
 * caller unchanged, as text through `stdout()` / `stderr()`, or as the very
 * bytes through `writeBytes()` where the caller's streams take bytes (the real
 * process's do), and its exit code is the client's. And the client's modules
 * start none of Deno's Node layer.
 */
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { importsIn } from "../_helpers/imports.ts";
import type { CommandIO } from "../../lib/io/mod.ts";
import { viaDaemon } from "../../lib/daemon/client.ts";
import { frame, frames, writeAll } from "../../lib/daemon/wire.ts";
import { tempDir } from "../_helpers/temp.ts";

const OUT = '{"text": "é ✓ 𝄞 \\u0000"}\n';
const ERR = "warning: ünïcode\n";

/** A listener registered as the daemon of `root` in `dir`, answering one request with OUT, ERR and exit code 1. */
async function fakeDaemon(dir: string, root: string) {
  const socket = join(dir, "1.sock");
  const listener = Deno.listen({ transport: "unix", path: socket });
  await Deno.writeTextFile(
    join(dir, "1.json"),
    JSON.stringify({ pid: 1, root, socket, started: new Date().toISOString(), version: "test" }),
  );
  const served = (async () => {
    const conn = await listener.accept();
    try {
      for await (const { type } of frames(conn)) {
        if (type !== "q") continue;
        await writeAll(conn, frame("o", OUT));
        await writeAll(conn, frame("e", ERR));
        await writeAll(conn, frame("x", JSON.stringify({ code: 1 })));
        break;
      }
    } finally {
      conn.close();
    }
  })();
  return { served, close: () => listener.close() };
}

async function withDaemon(test: (root: string, dir: string) => Promise<void>) {
  const base = await Deno.realPath(await tempDir({ prefix: "poly-daemon-client-" }));
  const dir = join(base, "daemon");
  const root = join(base, "repo");
  await Deno.mkdir(dir);
  await Deno.mkdir(root);
  const daemon = await fakeDaemon(dir, root);
  try {
    await test(root, dir);
    await daemon.served;
  } finally {
    daemon.close();
    await Deno.remove(base, { recursive: true });
  }
}

function io(root: string, bytes: boolean) {
  const text = { stdout: "", stderr: "" };
  const raw = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
  const streams: CommandIO = {
    stdout: (t) => (text.stdout += t, Promise.resolve()),
    stderr: (t) => (text.stderr += t, Promise.resolve()),
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    cwd: root,
    ...(bytes ? { writeBytes: (stream, b) => (raw[stream].push(b), Promise.resolve()) } : {}),
  };
  return { streams, text, raw };
}

Deno.test("viaDaemon: the daemon's output reaches stdout() and stderr() as text", async () => {
  await withDaemon(async (root, dir) => {
    const { streams, text } = io(root, false);
    assert.equal(await viaDaemon(["lint"], streams, dir), 1);
    assert.deepEqual(text, { stdout: OUT, stderr: ERR });
  });
});

Deno.test("viaDaemon: streams that take bytes get the daemon's bytes, not decoded and encoded again", async () => {
  await withDaemon(async (root, dir) => {
    const { streams, text, raw } = io(root, true);
    assert.equal(await viaDaemon(["lint"], streams, dir), 1);
    assert.deepEqual(text, { stdout: "", stderr: "" }, "nothing went through the text writers");
    const encoder = new TextEncoder();
    assert.deepEqual(raw, { stdout: [encoder.encode(OUT)], stderr: [encoder.encode(ERR)] });
  });
});

/** The modules `files` import when they load (not `import type`, erased; not `import()`, loaded when it runs). */
async function runtimeGraph(files: string[]): Promise<{ modules: Set<string>; node: string[] }> {
  const modules = new Set<string>();
  const node: string[] = [];
  const walk = async (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const { specifier, kind } of importsIn(await Deno.readTextFile(file))) {
      if (kind !== "static") continue;
      if (specifier.startsWith("node:")) node.push(`${specifier} (${file.slice(REPO.length + 1)})`);
      else if (specifier.startsWith(".")) await walk(resolve(dirname(file), specifier));
    }
  };
  for (const file of files) await walk(join(REPO, file));
  return { modules, node };
}

Deno.test("a poly lint answered by a daemon or replayed starts none of Deno's Node layer (~15-20 ms): its modules import no node: module", async () => {
  const { modules, node } = await runtimeGraph([
    "main.ts",
    "lib/daemon/client.ts",
    // What a replayed run loads (lib/cli/commands/_check_run.ts `RunReplay`): the lookup, the read log's check, the report.
    "lib/cli/commands/_check_run.ts",
    "lib/cache/replay.ts",
    "lib/daemon/wire.ts",
    "lib/fs/read_log.ts",
    "lib/paths/mod.ts",
    "lib/report/encode.ts",
    "lib/report/exit.ts",
    "lib/report/stream.ts",
  ]);
  assert.ok(modules.has(join(REPO, "lib/daemon/registry.ts")) && modules.has(join(REPO, "lib/paths/path.ts")));
  assert.deepEqual(node, []);
});
