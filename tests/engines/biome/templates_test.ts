/**
 * A Jinja/Django/Liquid template named `.html` (issue 21): `biome lint` lints it as HTML, so
 * poly does; `biome format` leaves HTML alone and poly's HTML formatter would reflow the
 * template tags, so `poly fmt` skips it with the reason. The real `poly lint` / `poly fmt`
 * processes on tests/engines/testdata/parity/biome-jinja-html (its README gives biome's verdict).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../../_helpers/cli.ts";

interface Doc {
  results: {
    path: string;
    diagnostics?: { code?: string; engine: string; span?: { start_line: number } }[];
    skipped?: string;
  }[];
}

async function run(dir: string, args: string[]): Promise<Doc> {
  const out = await runPoly([...args, "--no-cache", "--format", "json"], { cwd: dir });
  try {
    return JSON.parse(out.stdout);
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
}

Deno.test("poly lint lints a Jinja HTML template with biome, as biome lint does; poly fmt leaves it alone, saying why", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-jinja-html");
  await Deno.mkdir(join(dir, ".git"));
  const before = await Deno.readTextFile(join(dir, "page.html"));
  const lint = (await run(dir, ["lint", "--no-workspace"])).results.find((r) => r.path === "page.html");
  assert.equal(lint?.skipped, undefined);
  assert.deepEqual(
    (lint?.diagnostics ?? []).filter((d) => d.engine === "biome").map((d) => `${d.code}:${d.span?.start_line}`),
    ["a11y/useAltText:5"],
  );
  const fmt = (await run(dir, ["fmt"])).results.find((r) => r.path === "page.html");
  assert.match(
    fmt?.skipped ?? "",
    /^template file \(Jinja, Django or Liquid block tag "\{%" at line 1 of HTML\): left alone by formatters$/,
  );
  assert.equal(await Deno.readTextFile(join(dir, "page.html")), before);
});
