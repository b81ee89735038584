/**
 * The build stamp a compiled poly carries (`poly --version` prints it): the
 * build id is `git describe --tags --always --dirty`; the channel is "release"
 * only when HEAD is exactly the tag `v<version>` of deno.json's version and the
 * working tree is clean (no modified, staged or untracked files), else "dev".
 *
 * The stamp is written into `lib/identity/_stamp.ts` for the duration of the
 * compile and the from-source file is put back afterwards, whatever happens
 * ({@link withStamp}).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** The stamp values (the shape of `STAMP` in `lib/identity/_stamp.ts`). */
export interface BuildStamp {
  buildId: string;
  channel: "release" | "dev";
}

/** Facts read from git. */
export interface GitFacts {
  /** `git describe --tags --always --dirty`, or undefined outside a git checkout. */
  describe?: string;
  /** Tags pointing at HEAD. */
  tagsAtHead: string[];
  /** Whether `git status --porcelain` printed nothing. */
  clean: boolean;
}

async function git(root: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout) : undefined;
  } catch {
    return undefined; // git is not installed
  }
}

/** Reads the git facts of the checkout at `root`. */
export async function gitFacts(root: string): Promise<GitFacts> {
  const describe = (await git(root, ["describe", "--tags", "--always", "--dirty"]))?.trim();
  const tags = (await git(root, ["tag", "--points-at", "HEAD"])) ?? "";
  const status = await git(root, ["status", "--porcelain"]);
  return {
    describe: describe || undefined,
    tagsAtHead: tags.split("\n").map((t) => t.trim()).filter((t) => t !== ""),
    clean: status !== undefined && status.trim() === "",
  };
}

/** The stamp for a build of `version` from a checkout with these facts. */
export function stampFor(version: string, facts: GitFacts): BuildStamp {
  const buildId = facts.describe ?? "unknown";
  const release = facts.describe !== undefined && facts.clean && facts.tagsAtHead.includes(`v${version}`);
  return { buildId, channel: release ? "release" : "dev" };
}

/** The from-source stamp (what the committed `_stamp.ts` holds). */
export const SOURCE_STAMP: BuildStamp = { buildId: "dev", channel: "dev" };

/** The text of `lib/identity/_stamp.ts` for a stamp. */
export function stampSource(stamp: BuildStamp): string {
  const fromSource = stamp.buildId === SOURCE_STAMP.buildId && stamp.channel === SOURCE_STAMP.channel;
  const note = fromSource
    ? "// Written by scripts/compile.ts for compiled builds; this is the from-source value."
    : "// Written by scripts/compile.ts for this compiled build; the from-source value is restored afterwards.";
  return [
    note,
    "/** Build stamp. */",
    `export const STAMP: { buildId: string; channel: "release" | "dev" } = { buildId: ${
      JSON.stringify(stamp.buildId)
    }, channel: ${JSON.stringify(stamp.channel)} };`,
    "",
  ].join("\n");
}

/** Reads the stamp values out of a `_stamp.ts` text, or undefined when it has none. */
export function parseStamp(text: string): BuildStamp | undefined {
  const m = /buildId:\s*("(?:[^"\\]|\\.)*")\s*,\s*channel:\s*"(release|dev)"/.exec(text);
  if (!m) return undefined;
  return { buildId: JSON.parse(m[1]), channel: m[2] as BuildStamp["channel"] };
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  await Deno.writeTextFile(tmp, text);
  try {
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Thrown when `_stamp.ts` does not hold the from-source stamp before a build. */
export class StaleStampError extends Error {
  constructor(path: string, found: BuildStamp | undefined) {
    super(
      `${path} does not hold the from-source stamp (found ${
        found ? `buildId ${JSON.stringify(found.buildId)}, channel ${JSON.stringify(found.channel)}` : "no stamp"
      }): an earlier build was interrupted. Restore it (git checkout -- ${path}) and run the build again.`,
    );
    this.name = "StaleStampError";
  }
}

/**
 * Writes `stamp` into the file at `path`, runs `fn`, and puts the original
 * bytes back — when `fn` returns, throws, or the process gets SIGINT/SIGTERM.
 * Refuses to start (StaleStampError) when the file does not hold the
 * from-source stamp, so a stamp left by a killed build is never taken for the
 * original.
 */
export async function withStamp<T>(path: string, stamp: BuildStamp, fn: () => Promise<T>): Promise<T> {
  const original = await Deno.readTextFile(path);
  const found = parseStamp(original);
  if (!found || found.buildId !== SOURCE_STAMP.buildId || found.channel !== SOURCE_STAMP.channel) {
    throw new StaleStampError(path, found);
  }
  let restored = false;
  const restoreSync = () => {
    if (restored) return;
    restored = true;
    Deno.writeTextFileSync(path, original);
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => {
    restoreSync();
    Deno.exit(130);
  };
  for (const s of signals) {
    try {
      Deno.addSignalListener(s, onSignal);
    } catch {
      // the signal is not supported here
    }
  }
  try {
    await writeAtomic(path, stampSource(stamp));
    return await fn();
  } finally {
    for (const s of signals) {
      try {
        Deno.removeSignalListener(s, onSignal);
      } catch {
        // was not added
      }
    }
    if (!restored) {
      restored = true;
      await writeAtomic(path, original);
    }
  }
}
