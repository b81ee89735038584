/**
 * A fake poly release served from 127.0.0.1, for running install.sh (and the
 * action's install step) against: archives made by scripts/package.ts around a
 * small shell script named `poly` that prints a version line, plus
 * sha256sums.txt and latest.txt. Each scenario lives under its own path prefix
 * (`<base>/<scenario>/v<version>/...`) so one server covers every case.
 *
 * @module
 */
import { join } from "node:path";
import { tarGz } from "../../scripts/_archive.ts";
import { checksumsText, packageBinary } from "../../scripts/package.ts";
import { archiveName, isTarget, type Target, TARGETS } from "../../scripts/_targets.ts";
import { tempDir } from "../_helpers/temp.ts";

/** The target install.sh picks on this machine (what `Deno.build.target` names). */
export function hostReleaseTarget(): Target {
  const t = Deno.build.target;
  if (!isTarget(t)) throw new Error(`no release target for ${t}`);
  return t;
}

/** The shell script a fake `poly` is: prints `line` for --version, exits `code`. */
export function fakePoly(line: string, code = 0): string {
  return `#!/bin/sh\nif [ "\${1:-}" = --version ]; then echo "${line}"; exit ${code}; fi\necho "fake poly: $*"\nexit ${code}\n`;
}

/** The version line a release build of `version` prints. */
export function versionLine(version: string): string {
  return `poly ${version} (build v${version}, channel release)`;
}

/** One served file: bytes, or a response that breaks off mid-body. */
type Served = Uint8Array | { truncated: Uint8Array };

/** A running fake release server. */
export interface ReleaseServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** The archive name for this machine. */
  archive: string;
  close(): Promise<void>;
}

/** A release archive around `script`, made by the release packaging (or by hand, for a wrong member name). */
async function archiveOf(script: string, target: Target, work: string, member = "poly"): Promise<Uint8Array> {
  if (member !== "poly") {
    return await tarGz([{ name: member, data: new TextEncoder().encode(script), mode: 0o755, mtime: 1_700_000_000 }]);
  }
  const dir = await tempDir({ dir: work });
  const bin = join(dir, "input");
  await Deno.writeTextFile(bin, script);
  return await Deno.readFile(await packageBinary(bin, target, dir, 1_700_000_000));
}

async function sumsFor(files: Record<string, Uint8Array>, work: string): Promise<Uint8Array> {
  const dir = await tempDir({ dir: work });
  const paths: string[] = [];
  for (const [name, bytes] of Object.entries(files)) {
    await Deno.writeFile(join(dir, name), bytes);
    paths.push(join(dir, name));
  }
  return new TextEncoder().encode(await checksumsText(paths));
}

/**
 * Starts the server. Scenarios (each a path prefix, each with a latest.txt naming 0.2.0):
 * - `good`: v0.1.0 and v0.2.0, latest.txt = v0.2.0
 * - `tampered`: the archive differs from what sha256sums.txt lists
 * - `noline`: sha256sums.txt lists other targets' archives only
 * - `nosums`: no sha256sums.txt (404)
 * - `truncated`: the archive download breaks off midway
 * - `broken`: a correctly summed archive whose poly exits 1
 * - `wrongversion`: a correctly summed archive whose poly reports another version
 * - `noprogram`: a correctly summed archive without a `poly` member
 */
export async function startReleaseServer(): Promise<ReleaseServer> {
  const work = await tempDir({ prefix: "poly-fake-release-" });
  const target = hostReleaseTarget();
  const archive = archiveName(target);
  const enc = new TextEncoder();
  const files = new Map<string, Served>();
  const release = async (scenario: string, version: string, poly: Uint8Array, sums?: Uint8Array) => {
    files.set(`/${scenario}/v${version}/${archive}`, poly);
    files.set(`/${scenario}/v${version}/sha256sums.txt`, sums ?? await sumsFor({ [archive]: poly }, work));
  };

  for (const v of ["0.1.0", "0.2.0"]) await release("good", v, await archiveOf(fakePoly(versionLine(v)), target, work));
  files.set("/good/latest.txt", enc.encode("v0.2.0\n"));

  const genuine = await archiveOf(fakePoly(versionLine("0.2.0")), target, work);
  const evil = await archiveOf(fakePoly(versionLine("0.2.0") + " # evil"), target, work);
  await release("tampered", "0.2.0", evil, await sumsFor({ [archive]: genuine }, work));

  const others: Record<string, Uint8Array> = {};
  for (const t of TARGETS) if (t !== target) others[archiveName(t)] = genuine;
  await release("noline", "0.2.0", genuine, await sumsFor(others, work));

  files.set(`/nosums/v0.2.0/${archive}`, genuine);

  files.set(`/truncated/v0.2.0/${archive}`, { truncated: genuine });
  files.set(`/truncated/v0.2.0/sha256sums.txt`, await sumsFor({ [archive]: genuine }, work));

  await release("broken", "0.2.0", await archiveOf(fakePoly("segfault", 1), target, work));
  await release("wrongversion", "0.2.0", await archiveOf(fakePoly(versionLine("9.9.9")), target, work));
  await release("noprogram", "0.2.0", await archiveOf(fakePoly(versionLine("0.2.0")), target, work, "other"));

  for (const scenario of new Set([...files.keys()].map((p) => p.split("/")[1]))) {
    if (scenario !== "good") files.set(`/${scenario}/latest.txt`, enc.encode("0.2.0\n"));
  }

  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const body = files.get(path);
    if (body === undefined) return new Response("not found\n", { status: 404 });
    if (body instanceof Uint8Array) return new Response(body as Uint8Array<ArrayBuffer>);
    const half = body.truncated.slice(0, Math.floor(body.truncated.length / 2));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(half);
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-length": String(body.truncated.length) } });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    requests,
    archive,
    async close() {
      await server.shutdown();
      await Deno.remove(work, { recursive: true }).catch(() => {});
    },
  };
}
