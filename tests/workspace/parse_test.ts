/**
 * The parsers of the built-in whole-project tools, on recorded output
 * (testdata/ was recorded from cargo clippy 1.95 and go 1.19 on
 * fixtures/workspace/mcp, with paths rewritten to /work/fixture).
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import {
  clippyBuildSucceeded,
  jsonObjects,
  parseCargoDeny,
  parseCargoSort,
  parseClippy,
  parseGoVet,
  parseMachete,
} from "../../lib/workspace/_parse.ts";

const data = (name: string) => Deno.readTextFileSync(fromFileUrl(new URL(`./testdata/${name}`, import.meta.url)));

Deno.test("parseClippy() turns compiler messages into diagnostics with paths, spans, codes and fixes", () => {
  const diagnostics = parseClippy(data("clippy.jsonl"), "/work/fixture/rs", "/work/fixture");
  assert.deepEqual(diagnostics.map((d) => [d.code, d.path, d.span?.start_line, d.severity]), [
    ["clippy::len_zero", "rs/src/main.rs", 3, "warning"],
    ["clippy::clone_on_copy", "rs/src/main.rs", 7, "warning"],
    ["clippy::useless_vec", "rs/src/main.rs", 2, "warning"],
  ]);
  const lenZero = diagnostics[0];
  assert.equal(lenZero.engine, "clippy");
  assert.deepEqual(lenZero.span, { start_line: 3, start_col: 8, end_line: 3, end_col: 20 });
  assert.deepEqual(lenZero.fix, [{ start_byte: 46, end_byte: 58, replacement: "v.is_empty()" }]);
  assert.equal(lenZero.url, "https://rust-lang.github.io/rust-clippy/master/index.html#len_zero");
  assert.doesNotMatch(lenZero.description ?? "", /for further information/);
  assert.equal(clippyBuildSucceeded(data("clippy.jsonl")), true);
});

Deno.test("parseClippy() reports a compile error as an error and drops the 'aborting' summary", () => {
  const diagnostics = parseClippy(data("clippy_broken.jsonl"), "/work/fixture/rs", "/work/fixture/rs");
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, "error");
  assert.equal(diagnostics[0].path, "src/main.rs");
  assert.equal(clippyBuildSucceeded(data("clippy_broken.jsonl")), false);
});

Deno.test("parseClippy() drops duplicates reported for several targets", () => {
  const line = data("clippy.jsonl").split("\n")[0];
  assert.equal(parseClippy(`${line}\n${line}\n`, "/work/fixture/rs", "/work/fixture").length, 1);
});

Deno.test("parseGoVet() reads the per-package JSON objects on stderr", () => {
  const diagnostics = parseGoVet(data("govet.txt"), "/work/fixture/go", "/work/fixture");
  assert.deepEqual(diagnostics, [{
    engine: "go-vet",
    code: "printf",
    severity: "error",
    title: "fmt.Printf format %d has arg x of wrong type string",
    url: "https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/printf",
    path: "go/main.go",
    span: { start_line: 7, start_col: 2, end_line: 7, end_col: 2 },
  }]);
});

Deno.test("jsonObjects() skips text around objects and braces inside strings", () => {
  assert.deepEqual(jsonObjects('# pkg\n{"a": "}{"}\nnoise {"b": {"c": 1}} trailing {broken'), [{ a: "}{" }, {
    b: { c: 1 },
  }]);
});

Deno.test("parseMachete() lists each unused dependency of each crate", () => {
  const text = [
    "Analyzing dependencies of crates in this directory...",
    "cargo-machete found the following unused dependencies in /work/fixture:",
    "core -- /work/fixture/crates/core/Cargo.toml:",
    "\tserde",
    "\tanyhow",
    "",
    "Done!",
  ].join("\n");
  const diagnostics = parseMachete(text, "/work/fixture", "/work/fixture");
  assert.deepEqual(diagnostics.map((d) => [d.title, d.path, d.code]), [
    ['Unused dependency "serde" in crate "core"', "crates/core/Cargo.toml", "unused-dependency"],
    ['Unused dependency "anyhow" in crate "core"', "crates/core/Cargo.toml", "unused-dependency"],
  ]);
});

Deno.test("parseCargoSort() names each crate whose dependencies are not sorted", () => {
  const diagnostics = parseCargoSort("Checking lintme...\nerror: Dependencies for lintme are not sorted\n");
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0].title, /"lintme" are not sorted/);
  assert.deepEqual(parseCargoSort("Checking lintme...\n"), []);
});

Deno.test("parseCargoDeny() reads diagnostic JSON lines and ignores the summary", () => {
  const lines = [
    JSON.stringify({
      type: "diagnostic",
      fields: {
        severity: "error",
        code: "vulnerability",
        message: "Heap overflow in foo",
        labels: [{ span: "foo 0.1.0", message: "security vulnerability detected", line: 12, column: 1 }],
        notes: ["ID: RUSTSEC-2099-0001"],
      },
    }),
    JSON.stringify({ type: "summary", fields: { advisories: { errors: 1 } } }),
  ].join("\n");
  const [d, ...rest] = parseCargoDeny(lines, "/work/fixture", "/work/fixture");
  assert.equal(rest.length, 0);
  assert.equal(d.severity, "error");
  assert.equal(d.code, "vulnerability");
  assert.equal(d.path, "Cargo.lock");
  assert.equal(d.span?.start_line, 12);
  assert.match(d.description ?? "", /RUSTSEC-2099-0001/);
});
