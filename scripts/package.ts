/**
 * Packages compiled binaries as release archives and writes their checksums.
 *
 * ```sh
 * deno run -q -P=build scripts/package.ts --all      # dist/poly-<target>[.exe] → dist/release/
 * deno run -q -P=build scripts/package.ts --dist dist --out dist/release --target x86_64-unknown-linux-gnu
 * ```
 *
 * Each archive holds one file, `poly` (mode 0755) in `poly-<target>.tar.gz`, or
 * `poly.exe` in `poly-<target>.zip` for Windows. `sha256sums.txt` lists every
 * archive in the output directory as `<sha256>  <name>` (the `sha256sum`
 * format), sorted by name. `SOURCE_DATE_EPOCH`, when set, is the files' mtime.
 *
 * @module
 */
import { basename, join } from "node:path";
import { type ArchiveFile, sha256Hex, tarGz, zip } from "./_archive.ts";
import { archiveName, binaryName, isTarget, isWindows, programName, type Target, TARGETS } from "./_targets.ts";

/** Name of the checksum file beside the archives. */
export const CHECKSUMS = "sha256sums.txt";

/** Builds the archive for `target` from the program at `binary`; returns the archive's path. */
export async function packageBinary(binary: string, target: Target, outDir: string, mtime?: number): Promise<string> {
  const data = await Deno.readFile(binary);
  const file: ArchiveFile = {
    name: programName(target),
    data,
    mode: 0o755,
    mtime: mtime ?? sourceDateEpoch() ?? Math.floor(Date.now() / 1000),
  };
  const bytes = isWindows(target) ? await zip([file]) : await tarGz([file]);
  await Deno.mkdir(outDir, { recursive: true });
  const path = join(outDir, archiveName(target));
  await Deno.writeFile(path, bytes);
  return path;
}

function sourceDateEpoch(): number | undefined {
  const value = Deno.env.get("SOURCE_DATE_EPOCH");
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The text of `sha256sums.txt` for these files (`<hex>  <basename>`, sorted by name). */
export async function checksumsText(paths: readonly string[]): Promise<string> {
  const lines: string[] = [];
  for (const path of [...paths].sort((a, b) => basename(a).localeCompare(basename(b)))) {
    lines.push(`${await sha256Hex(await Deno.readFile(path))}  ${basename(path)}`);
  }
  return lines.map((l) => l + "\n").join("");
}

/** Writes `sha256sums.txt` in `outDir` covering every release archive there; returns its path. */
export async function writeChecksums(outDir: string): Promise<string> {
  const archives: string[] = [];
  for await (const e of Deno.readDir(outDir)) {
    if (e.isFile && /^poly-.+\.(tar\.gz|zip)$/.test(e.name)) archives.push(join(outDir, e.name));
  }
  const path = join(outDir, CHECKSUMS);
  await Deno.writeTextFile(path, await checksumsText(archives));
  return path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs the packaging; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  let dist = "dist";
  let out: string | undefined;
  let all = false;
  const targets: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--all") all = true;
    else if (a === "--dist") dist = args[++i];
    else if (a === "--out") out = args[++i];
    else if (a === "--target" && isTarget(args[i + 1] ?? "")) targets.push(args[++i] as Target);
    else {
      console.error(`package: unknown or incomplete argument "${a}"`);
      return 2;
    }
  }
  out ??= join(dist, "release");
  const wanted = all ? [...TARGETS] : targets.length > 0 ? targets : [];
  if (wanted.length === 0) {
    for (const t of TARGETS) if (await exists(join(dist, binaryName(t)))) wanted.push(t);
  }
  const missing = [];
  for (const t of wanted) if (!(await exists(join(dist, binaryName(t))))) missing.push(binaryName(t));
  if (wanted.length === 0 || missing.length > 0) {
    console.error(`package: missing ${missing.length > 0 ? missing.join(", ") : "binaries"} in ${dist}/`);
    return 1;
  }
  for (const t of wanted) console.error(`packaged ${await packageBinary(join(dist, binaryName(t)), t, out)}`);
  console.error(`wrote ${await writeChecksums(out)}`);
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
