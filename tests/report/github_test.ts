import { equal } from "node:assert/strict";
import { encodeGithub, escapeData, escapeProperty, workflowCommand } from "../../lib/report/mod.ts";
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
