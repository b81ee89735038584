/**
 * lib/cli/output.ts: the one `--format` option and the one document writer of
 * the command line, and a scan that every command uses them.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { decode } from "@toon-format/toon";
import { object, parse } from "../../lib/cli/_optique.ts";
import { formatOption, jsonText, writeDocument } from "../../lib/cli/output.ts";
import { REPO } from "../_helpers/cli.ts";

const value = (parser: ReturnType<typeof formatOption>, args: string[]) => {
  const parsed = parse(object({ format: parser }), args);
  return parsed.success ? parsed.value.format : `error`;
};

Deno.test("formatOption() defaults to the first choice, or the default given, and refuses others", () => {
  const human = formatOption(["human", "json", "toon"]);
  equal(value(human, []), "human");
  equal(value(human, ["--format", "toon"]), "toon");
  equal(value(human, ["--format", "sarif"]), "error");
  equal(value(formatOption(["human", "json"], { default: "json" }), []), "json");
});

Deno.test("writeDocument() prints JSON indented by two spaces and TOON, each with one final newline", async () => {
  const out: string[] = [];
  const io = { stdout: (text: string) => Promise.resolve(void out.push(text)) };
  const doc = { engines: [{ id: "ruff", tier: "in-process" }], ok: true };
  await writeDocument(io, doc, "json");
  await writeDocument(io, doc, "toon");
  equal(out[0], JSON.stringify(doc, null, 2) + "\n");
  equal(out[0], jsonText(doc));
  ok(out[1].endsWith("\n") && !out[1].endsWith("\n\n"), JSON.stringify(out[1]));
  deepEqual(decode(out[1].slice(0, -1)), doc);
});

/** Every `.ts` file under `dir`. */
function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...files(path));
    else if (e.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

Deno.test("every command declares --format with formatOption() and prints JSON through lib/cli/output.ts", () => {
  const own: string[] = [];
  for (const file of files(join(REPO, "lib", "cli"))) {
    const name = relative(REPO, file);
    if (name === "lib/cli/output.ts") continue;
    const text = Deno.readTextFileSync(file);
    if (/option\(\s*"--format"/.test(text)) own.push(`${name}: declares --format itself`);
    if (/JSON\.stringify\([^;]*,\s*null,\s*2\)/.test(text)) own.push(`${name}: writes JSON itself`);
  }
  deepEqual(own, []);
});
