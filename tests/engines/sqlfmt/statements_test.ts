import { deepEqual, equal } from "node:assert/strict";
import { format } from "@wasm-fmt/sql_fmt";
import { statementRuns } from "../../../lib/engines/sqlfmt/_statements.ts";
import { sqlfmt } from "../../../lib/engines/sqlfmt/mod.ts";
import { settings } from "../_harness.ts";

Deno.test("statementRuns cuts after a ; that ends its line, outside strings, comments and parentheses", () => {
  const text = [
    "insert into t values ('a;', \"b;\");",
    "-- a comment; with a semicolon",
    "select (1;",
    "2);",
    "select 'it''s;",
    "still the string';",
    "/* a; block",
    "comment; */ select 3; select 4;",
    "select 5;",
  ].join("\n") + "\n";
  const runs = statementRuns(text, 1);
  equal(runs.join(""), text);
  deepEqual(runs.map((r) => r.trimEnd().split("\n").at(-1)), [
    "insert into t values ('a;', \"b;\");",
    "2);",
    "still the string';",
    "comment; */ select 3; select 4;",
    "select 5;",
  ]);
  // Runs of at least the size asked.
  deepEqual(statementRuns("select 1;\nselect 2;\nselect 3;\n", 15), ["select 1;\nselect 2;\n", "select 3;\n"]);
});

Deno.test("statementRuns leaves whole a text with statements inside blocks, or one it cannot read to the end", () => {
  const trigger = "create trigger x before insert on t for each row begin\n  set new.a = 1;\n  set new.b = 2;\nend;\n";
  deepEqual(statementRuns(trigger, 1), [trigger]);
  const body = "create function f() returns int as $$\nselect 1;\n$$ language sql;\n";
  deepEqual(statementRuns(body, 1), [body]);
  deepEqual(statementRuns("select 'open;\nselect 2;\n", 1), ["select 'open;\nselect 2;\n"]);
  deepEqual(statementRuns("select (1;\nselect 2;\n", 1), ["select (1;\nselect 2;\n"]);
});

Deno.test("sqlfmt formats a long text of many statements in runs, as sqlformat formats it whole", async () => {
  const text = Array.from(
    { length: 3000 },
    (_, i) =>
      i % 7 === 0
        ? `-- row ${i}\ninsert into t (a,b) values (${i},'x;${i}');\n`
        : `select a,b from t${i} where x=${i};\n`,
  ).join("");
  equal(text.length > 64 * 1024, true);
  const engine = await sqlfmt.load();
  const out = await engine.format!({ path: "/x/a.sql", relPath: "a.sql", language: "sql", text }, settings());
  let whole = format(text, { indent_style: "space", indent_width: 2 });
  whole = format(whole, { indent_style: "space", indent_width: 2 });
  equal(out.trimEnd(), whole.trimEnd());
});
