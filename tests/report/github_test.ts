import { equal } from "node:assert/strict";
import { encodeGithub, escapeData, escapeProperty, skipSummary, workflowCommand } from "../../lib/report/mod.ts";
import { report } from "./_fixture.ts";

Deno.test("escapeData() and escapeProperty() follow GitHub's escaping rules", () => {
  equal(escapeData("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext: a,b");
  equal(escapeProperty("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext%3A a%2Cb");
  equal(escapeData("red \x1b[31m"), "red \uFFFD[31m");
});

Deno.test("workflowCommand() leaves out empty properties", () => {
  equal(workflowCommand("error", { file: "a.py", line: undefined, title: "" }, "m"), "::error file=a.py::m");
  equal(workflowCommand("notice", {}, "m"), "::notice::m");
});

Deno.test("encodeGithub() annotates diagnostics by severity, with escaped file names", () => {
  const text = encodeGithub(report({
    results: [{
      path: "src/a,b.py",
      diagnostics: [
        {
          engine: "ruff",
          code: "F401",
          severity: "error",
          title: "50% unused\nreally",
          span: { start_line: 1, start_col: 8, end_line: 1, end_col: 10 },
        },
        { engine: "ruff", severity: "info", title: "note" },
        { engine: "ruff", severity: "hint", title: "hint" },
      ],
    }],
  }));
  equal(
    text,
    [
      "::notice file=src/a%2Cb.py,title=ruff::hint",
      "::notice file=src/a%2Cb.py,title=ruff::note",
      "::error file=src/a%2Cb.py,line=1,col=8,endLine=1,endColumn=10,title=ruff F401::50%25 unused%0Areally",
      "1 file checked, 0 skipped, 0 errored: 1 error, 1 info, 1 hint",
      "",
    ].join("\n"),
  );
});

Deno.test("encodeGithub() reports errored files, including run-level errors without a path", () => {
  const text = encodeGithub(
    report({ errors: [{ path: "", message: "config: bad" }, { path: "b.py", message: "cannot read" }] }),
  );
  equal(text.split("\n")[0], "::error title=poly::poly could not process this file: config: bad");
  equal(text.split("\n")[1], "::error file=b.py,title=poly::poly could not process this file: cannot read");
});

Deno.test("encodeGithub() summarises every skipped file in one notice: count, then each reason with its count and an example", () => {
  const skipped = [
    ...Array.from(
      { length: 200 },
      (_, i) => ({ path: `z/${String(i).padStart(3, "0")}.zig`, reason: "no lint engine for Zig" }),
    ),
    ...Array.from({ length: 29 }, (_, i) => ({ path: `charts/t${i}.yaml`, reason: "template file" })),
  ];
  const lines = encodeGithub(report({ skipped, summary: { checked: 3, skipped: 229, errored: 0 } })).split("\n");
  const notices = lines.filter((l) => l.startsWith("::notice"));
  equal(notices.length, 1);
  equal(
    notices[0],
    "::notice title=poly::poly skipped 229 files (the human report names each):%0Ano lint engine for Zig: 200 files, e.g. z/000.zig%0Atemplate file: 29 files, e.g. charts/t0.yaml",
  );
});

Deno.test("skipSummary() names five reasons and counts the rest together", () => {
  const skipped = Array.from({ length: 8 }, (_, i) => ({ path: `f${i}`, reason: `reason ${i}` }));
  const text = skipSummary(skipped);
  equal(text.split("%0A").length, 1 + 5 + 1);
  equal(text.endsWith("%0A3 other reasons: 3 files"), true);
});
