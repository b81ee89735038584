/**
 * Deno's base runtime (`denort`): the executable `deno compile` appends poly's
 * code to. `deno compile` takes it from `$DENORT_BIN`, else from
 * `$DENO_DIR/dl/release/v<deno version>/denort-<target>.zip`, else downloads
 * that zip from Deno's download site. Where the download cannot work, the build
 * stops with {@link runtimeMissingMessage} instead of a raw network error.
 *
 * `DENORT_BIN` names one unzipped runtime, so it is used for the current
 * platform's target only; another target's runtime comes from the cache or the
 * download.
 *
 * @module
 */
import { join } from "node:path";
import { stripAnsi } from "./_text.ts";

/** Where a target's base runtime comes from. */
export type RuntimeSource =
  | { kind: "denort-bin"; path: string }
  | { kind: "cache"; path: string }
  | { kind: "download"; url: string; cachePath: string };

/** The Deno version whose runtime a build needs (the Deno running this script). */
export function denoVersion(): string {
  return Deno.version.deno;
}

/** The download URL `deno compile` uses for a target's runtime. */
export function denortUrl(version: string, target: string): string {
  return `https://dl.deno.land/release/v${version}/denort-${target}.zip`;
}

/** Where `deno compile` looks for a cached runtime zip. */
export function denortCachePath(denoDir: string, version: string, target: string): string {
  return join(denoDir, "dl", "release", `v${version}`, `denort-${target}.zip`);
}

/** Deno's cache directory (`$DENO_DIR` or its platform default), as `deno info` reports it. */
export async function denoDir(deno = Deno.execPath()): Promise<string> {
  const out = await new Deno.Command(deno, {
    args: ["info", "--json"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Where the runtime for `target` will come from. `denortBin` (the DENORT_BIN
 * value) counts only when `target` is the host's.
 */
export async function runtimeSource(options: {
  target: string;
  host: string;
  version: string;
  denoDir: string;
  denortBin?: string;
}): Promise<RuntimeSource> {
  if (options.denortBin && options.target === options.host) return { kind: "denort-bin", path: options.denortBin };
  const cachePath = denortCachePath(options.denoDir, options.version, options.target);
  if (await isFile(cachePath)) return { kind: "cache", path: cachePath };
  return { kind: "download", url: denortUrl(options.version, options.target), cachePath };
}

/**
 * Whether `deno compile`'s failure output is about the base runtime (a download
 * that failed, a missing DENORT_BIN, an unreadable cached zip) rather than about
 * poly's code.
 */
export function isBaseRuntimeFailure(output: string): boolean {
  const text = stripAnsi(output);
  return /Setting up base binary|Could not find denort|denort-[A-Za-z0-9_.-]+\.zip|dl\.deno\.land\/release/.test(text);
}

/** The most specific cause line of a `deno compile` error chain ("4: Connection refused" → "Connection refused"). */
export function failureCause(output: string): string {
  const text = stripAnsi(output).split(/^Stack backtrace:/m)[0];
  const chain = text.includes("Caused by:") ? text.slice(text.indexOf("Caused by:")) : text;
  const causes = [...chain.matchAll(/^\s*\d+: (.+)$/gm)].map((m) => m[1].trim());
  const download = causes.find((c) => c.startsWith("error sending request"));
  const last = causes.at(-1);
  if (download) {
    const short = download.replace(/\s*\(https?:[^)]*\)/, "");
    return last && !download.includes(last) ? `${short}: ${last}` : short;
  }
  return last ?? text.trim().split("\n").filter((l) => l.trim() !== "").at(-1) ?? "unknown error";
}

/** What the user is told when a target's base runtime cannot be had. */
export function runtimeMissingMessage(options: {
  target: string;
  host: string;
  version: string;
  denoDir: string;
  cause: string;
  denortBin?: string;
}): string {
  const { target, version } = options;
  const zip = `denort-${target}.zip`;
  const dir = join(options.denoDir, "dl", "release", `v${version}`);
  const lines = [
    `Cannot build poly for ${target}: Deno's base runtime (denort ${version}) is not available.`,
  ];
  if (options.denortBin && target === options.host) {
    lines.push(`  DENORT_BIN=${options.denortBin} could not be used: ${options.cause}`);
  } else {
    lines.push(
      `  It is not in the cache, and downloading ${denortUrl(version, target)} failed: ${options.cause}`,
    );
  }
  lines.push("Supply the runtime, then run the task again:");
  if (target === options.host) {
    lines.push(`  - DENORT_BIN=/path/to/denort deno task compile   (the unzipped denort ${version} for ${target})`);
  } else if (options.denortBin) {
    lines.push(`  (DENORT_BIN is used for this machine's target, ${options.host}, only)`);
  }
  lines.push(`  - place ${zip} (from ${denortUrl(version, target)}) in ${dir}/`);
  return lines.join("\n");
}

/**
 * Asks `deno compile` itself whether it can get the runtime for `target`, by
 * compiling a one-line program in a temporary directory (no config, no
 * dependencies). A successful probe leaves the downloaded zip in the cache for
 * the real build. Returns the failure output, or undefined on success.
 */
export async function probeRuntime(options: {
  target: string;
  /** The child's whole environment (see {@link childEnv}). */
  env: Record<string, string>;
  deno?: string;
  signal?: AbortSignal;
}): Promise<string | undefined> {
  const dir = await Deno.makeTempDir({ prefix: "poly-denort-probe-" });
  try {
    await Deno.writeTextFile(join(dir, "probe.ts"), "console.log(1);\n");
    const command = new Deno.Command(options.deno ?? Deno.execPath(), {
      args: [
        "compile",
        "--no-config",
        "--no-lock",
        "--no-check",
        "--target",
        options.target,
        "-o",
        "probe",
        "probe.ts",
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: options.env,
      clearEnv: true,
      signal: options.signal,
    });
    const out = await command.output();
    if (out.success) return undefined;
    const dec = new TextDecoder();
    return dec.decode(out.stdout) + dec.decode(out.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * The environment for a child process: this process's variables, minus
 * `remove`, plus `set` (pass it with `clearEnv: true`; `Deno.Command`'s `env`
 * alone can add and change variables but not remove inherited ones).
 */
export function childEnv(set: Record<string, string>, remove: readonly string[] = []): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of remove) delete env[name];
  return { ...env, ...set };
}
