/**
 * Release packaging: each archive holds exactly `poly` (0755) or `poly.exe`,
 * readable by the system's tar and unzip; sha256sums.txt is in the format
 * `sha256sum -c` checks.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { crc32, sha256Hex, tarGz, zip } from "../../scripts/_archive.ts";
import { CHECKSUMS, checksumsText, main, packageBinary, writeChecksums } from "../../scripts/package.ts";
import { archiveName, binaryName, TARGETS } from "../../scripts/_targets.ts";
import { tempDir } from "../_helpers/temp.ts";

async function sh(cwd: string, command: string): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command("sh", { args: ["-c", command], cwd, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

async function has(program: string): Promise<boolean> {
  return (await sh("/", `command -v ${program}`)).code === 0;
}

const PROGRAM = new TextEncoder().encode("#!/bin/sh\necho 'poly 1.0.0 (build v1.0.0, channel release)'\n");

Deno.test("crc32() and sha256Hex() match the published check values", async () => {
  equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  equal(
    await sha256Hex(new TextEncoder().encode("abc")),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});

Deno.test({
  name: "packageBinary() makes a tar.gz holding only an executable poly",
  ignore: !(await has("tar")),
  async fn() {
    const dir = await tempDir({ prefix: "poly-package-" });
    try {
      await Deno.writeFile(join(dir, "poly-x86_64-unknown-linux-gnu"), PROGRAM);
      const archive = await packageBinary(
        join(dir, "poly-x86_64-unknown-linux-gnu"),
        "x86_64-unknown-linux-gnu",
        join(dir, "out"),
        1_700_000_000,
      );
      equal(archive, join(dir, "out", "poly-x86_64-unknown-linux-gnu.tar.gz"));
      const list = await sh(dir, `tar -tvzf ${archive}`);
      equal(list.code, 0, list.out);
      const lines = list.out.trim().split("\n");
      equal(lines.length, 1);
      match(lines[0], /^-rwxr-xr-x .* poly$/);
      await Deno.mkdir(join(dir, "x"));
      equal((await sh(dir, `tar -xzf ${archive} -C x poly`)).code, 0);
      deepEqual(await Deno.readFile(join(dir, "x", "poly")), PROGRAM);
      const run = await sh(dir, "./x/poly --version");
      equal(run.out.trim(), "poly 1.0.0 (build v1.0.0, channel release)");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "packageBinary() makes a zip holding poly.exe for Windows",
  ignore: !(await has("unzip")),
  async fn() {
    const dir = await tempDir({ prefix: "poly-package-" });
    try {
      const exe = join(dir, binaryName("x86_64-pc-windows-msvc"));
      const data = new Uint8Array(200_000).map((_, i) => (i * 7) % 251);
      await Deno.writeFile(exe, data);
      const archive = await packageBinary(exe, "x86_64-pc-windows-msvc", dir);
      ok(archive.endsWith("poly-x86_64-pc-windows-msvc.zip"));
      const test = await sh(dir, `unzip -t ${archive}`);
      equal(test.code, 0, test.out);
      match(test.out, /testing: poly\.exe +OK/);
      match(test.out, /No errors detected/);
      await Deno.mkdir(join(dir, "x"));
      equal((await sh(dir, `unzip -q ${archive} -d x`)).code, 0);
      deepEqual(await Deno.readFile(join(dir, "x", "poly.exe")), data);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("tarGz() and zip() refuse member names that escape the archive", async () => {
  for (const name of ["../poly", "/etc/poly", ""]) {
    const file = { name, data: PROGRAM, mode: 0o755, mtime: 0 };
    await tarGz([file]).then(() => ok(false, `tar accepted ${name}`), () => {});
    await zip([file]).then(() => ok(false, `zip accepted ${name}`), () => {});
  }
});

Deno.test({
  name: "sha256sums.txt lists every archive and passes sha256sum -c",
  ignore: !(await has("sha256sum")),
  async fn() {
    const dir = await tempDir({ prefix: "poly-package-" });
    try {
      for (const t of TARGETS) {
        await Deno.writeFile(join(dir, binaryName(t)), PROGRAM);
        await packageBinary(join(dir, binaryName(t)), t, join(dir, "release"));
      }
      await Deno.writeTextFile(join(dir, "release", "notes.txt"), "not an archive");
      const path = await writeChecksums(join(dir, "release"));
      equal(path, join(dir, "release", CHECKSUMS));
      const text = await Deno.readTextFile(path);
      const names = text.trim().split("\n").map((l) => l.split("  ")[1]);
      deepEqual(names, TARGETS.map(archiveName).sort());
      for (const line of text.trim().split("\n")) match(line, /^[0-9a-f]{64} {2}poly-\S+$/);
      const check = await sh(join(dir, "release"), `sha256sum -c ${CHECKSUMS}`);
      equal(check.code, 0, check.out);
      equal(await checksumsText([]), "");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("package.ts --all refuses when a target's binary is missing", async () => {
  const dir = await tempDir({ prefix: "poly-package-" });
  try {
    await Deno.writeFile(join(dir, binaryName("x86_64-unknown-linux-gnu")), PROGRAM);
    equal(await main(["--all", "--dist", dir]), 1);
    equal(await main(["--dist", dir]), 0, "without --all, the binaries present are packaged");
    deepEqual(
      (await Array.fromAsync(Deno.readDir(join(dir, "release")))).map((e) => e.name).sort(),
      ["poly-x86_64-unknown-linux-gnu.tar.gz", "sha256sums.txt"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
