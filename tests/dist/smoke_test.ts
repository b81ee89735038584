/**
 * The release smoke check (fixtures/dist/smoke/check.sh, run by release.yml on
 * every platform against the installed binary) passes against poly run from
 * source, and fails on a program that is not poly.
 */
import { equal, match } from "node:assert/strict";
import { join } from "node:path";
import { polyCommand, REPO } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/temp.ts";

const CHECK = join(REPO, "fixtures", "dist", "smoke", "check.sh");

async function wrapper(body: string): Promise<string> {
  const dir = await tempDir({ prefix: "poly-smoke-bin-" });
  await Deno.writeTextFile(join(dir, "poly"), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return join(dir, "poly");
}

async function check(poly: string, version?: string) {
  const out = await new Deno.Command("bash", {
    args: [CHECK, poly, ...(version ? [version] : [])],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("smoke check: poly from source passes (ruff, biome, ast-grep and gofmt all answer)", async () => {
  const quoted = polyCommand().map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const poly = await wrapper(`exec ${quoted} "$@"`);
  const run = await check(poly, `poly ${await version()} (build dev, channel dev)`);
  equal(run.code, 0, run.out);
  match(run.out, /smoke: ok \(lint exit 1, fmt exit 1\)/);
});

Deno.test("smoke check: a wrong version line or a program that is not poly fails", async () => {
  const fake = await wrapper(`echo "poly 0.1.0 (build v0.1.0, channel release)"; exit 0`);
  const wrong = await check(fake, "poly 0.1.0 (build v0.1.0, channel dev)");
  equal(wrong.code, 1);
  match(wrong.out, /version line is/);
  const notPoly = await check(fake);
  equal(notPoly.code, 1);
  match(notPoly.out, /poly lint exited 0, expected 1/);
});

async function version(): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).version;
}
