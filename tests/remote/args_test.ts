/**
 * `poly remote`'s argument building and exit codes, without a server.
 */
import assert from "node:assert/strict";
import { buildArguments, exitCodeOf, type InputSchema } from "../../lib/remote/client.ts";

const SCHEMA: InputSchema = {
  properties: {
    paths: { type: "array", items: { type: "string" } },
    level: { type: "integer" },
    consensus: { type: "boolean" },
    arguments: { type: "object" },
    export: { anyOf: [{ type: "boolean" }, { type: "string" }] },
    prompt: { type: "string" },
  },
};

Deno.test("buildArguments() converts --arg values by the tool's schema", () => {
  assert.deepEqual(
    buildArguments(
      ["paths=a.py", "paths=b.py", "level=3", "consensus=false", 'arguments={"x":1}', "prompt=42", "export=true"],
      undefined,
      SCHEMA,
    ),
    { paths: ["a.py", "b.py"], level: 3, consensus: false, arguments: { x: 1 }, prompt: "42", export: true },
  );
  assert.deepEqual(buildArguments(['paths=["x","y"]'], undefined, SCHEMA), { paths: ["x", "y"] });
  assert.deepEqual(buildArguments(["export=out.md"], undefined, SCHEMA), { export: "out.md" });
  assert.deepEqual(buildArguments(["prompt=a=b"], undefined, SCHEMA), { prompt: "a=b" }, "only the first = splits");
});

Deno.test("buildArguments() applies --arg on top of --json", () => {
  assert.deepEqual(
    buildArguments(["level=2"], '{"level": 1, "prompt": "p"}', SCHEMA),
    { level: 2, prompt: "p" },
  );
});

Deno.test("buildArguments() refuses what it cannot convert", () => {
  assert.throws(() => buildArguments(["level=high"], undefined, SCHEMA), /expected a number/);
  assert.throws(() => buildArguments(["consensus=maybe"], undefined, SCHEMA), /expected true or false/);
  assert.throws(() => buildArguments(["arguments=nope"], undefined, SCHEMA), /expected a JSON object/);
  assert.throws(() => buildArguments(["nokey"], undefined, SCHEMA), /use KEY=VALUE/);
  assert.throws(() => buildArguments(["other=1"], undefined, SCHEMA), /no such parameter; it takes paths, level/);
  assert.throws(() => buildArguments([], "[1]", SCHEMA), /must be a JSON object/);
  assert.throws(() => buildArguments([], "{", SCHEMA), /not valid JSON/);
});

Deno.test("exitCodeOf() uses the report's code, else isError", () => {
  const report = (over: Record<string, unknown>) => ({
    kind: "lint",
    mode: "check",
    results: [],
    errors: [],
    skipped: [],
    summary: { checked: 1, skipped: 0, errored: 0 },
    configs: [],
    poly: {
      version: "0",
      build_id: "dev",
      channel: "dev",
      executable: "x",
      pid: 1,
      engines_digest: "0",
      engines: {},
    },
    ...over,
  });
  assert.equal(exitCodeOf({ structuredContent: report({}) }), 0);
  assert.equal(
    exitCodeOf({ structuredContent: report({ summary: { checked: 0, skipped: 0, errored: 0 } }), isError: false }),
    2,
  );
  assert.equal(exitCodeOf({ structuredContent: { member: "x" } }), 0);
  assert.equal(exitCodeOf({ isError: true }), 1);
});
