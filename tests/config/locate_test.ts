import { assertEquals } from "./_assert.ts";
import { excerpt, KeyLocator } from "../../lib/config/_locate.ts";

const TEXT = `# comment [not.a.header]
title = """
multi = "line"
[fake.header]
"""
[lint.python.ruff]
select = ["E", "F"]
  [lint.python.ruff.rules.E501]
  level = "off"

[[jobs]]
name = "a"
[[jobs]]
name = "b"
opts = { deep = { key = 1 }, "quoted key" = 2 }
"per-file".'src/*.py' = ["S1"]
dotted.path.here = true
`;

Deno.test("KeyLocator finds table headers, nested headers and their keys", () => {
  const at = new KeyLocator(TEXT);
  assertEquals(at.locate(["lint"]), { line: 6, column: 1 });
  assertEquals(at.locate(["lint", "python", "ruff"]), { line: 6, column: 1 });
  assertEquals(at.locate(["lint", "python", "ruff", "select"]), { line: 7, column: 1 });
  assertEquals(at.locate(["lint", "python", "ruff", "rules", "E501"]), { line: 8, column: 3 });
  assertEquals(at.locate(["lint", "python", "ruff", "rules", "E501", "level"]), { line: 9, column: 3 });
});

Deno.test("KeyLocator skips comments and multi-line strings that look like keys", () => {
  const at = new KeyLocator(TEXT);
  assertEquals(at.has(["not"]), false);
  assertEquals(at.has(["multi"]), false);
  assertEquals(at.has(["fake"]), false);
  assertEquals(at.locate(["title"]), { line: 2, column: 1 });
});

Deno.test("KeyLocator indexes arrays of tables and array elements", () => {
  const at = new KeyLocator(TEXT);
  assertEquals(at.locate(["jobs", 0, "name"]), { line: 12, column: 1 });
  assertEquals(at.locate(["jobs", 1, "name"]), { line: 14, column: 1 });
  assertEquals(at.locate(["lint", "python", "ruff", "select", 1]), { line: 7, column: 16 });
});

Deno.test("KeyLocator finds keys inside inline tables, quoted and dotted keys", () => {
  const at = new KeyLocator(TEXT);
  assertEquals(at.locate(["jobs", 1, "opts", "deep", "key"]), { line: 15, column: 19 });
  assertEquals(at.locate(["jobs", 1, "opts", "quoted key"]), { line: 15, column: 30 });
  assertEquals(at.locate(["jobs", 1, "per-file", "src/*.py"]), { line: 16, column: 1 });
  assertEquals(at.locate(["jobs", 1, "dotted", "path", "here"]), { line: 17, column: 1 });
});

Deno.test("KeyLocator falls back to the nearest known ancestor, then to line 1", () => {
  const at = new KeyLocator(TEXT);
  assertEquals(at.locate(["lint", "python", "ruff", "missing"]), { line: 6, column: 1 });
  assertEquals(at.locate(["nowhere"]), { line: 1, column: 1 });
});

Deno.test("excerpt() shows the line with a caret under the column, keeping tabs", () => {
  assertEquals(excerpt("a = 1\n\tb = x\n", { line: 2, column: 6 }), " 2 | \tb = x\n   | \t    ^");
});
