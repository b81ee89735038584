/**
 * The eleven lint and format tools as declared: parameters exactly as the seed
 * lists them, annotations as REFERENCE.md says, output schemas that carry the
 * identity block, and task support only for the whole-project tools.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { TOOLS } from "../../tools/mod.ts";
import { Report } from "../../lib/report/schema.ts";

const tool = (name: string) => {
  const found = TOOLS.find((t) => t.name === name);
  assert.ok(found, `tool ${name} is registered`);
  return found;
};

const PARAMS: Record<string, string[]> = {
  lint: ["config", "exclude", "format", "paths", "shard"],
  format_check: ["config", "exclude", "format", "paths", "shard"],
  lint_fix: ["config", "exclude", "format", "paths"],
  format_write: ["config", "exclude", "format", "paths"],
  rules: ["config", "dirs", "format", "test"],
  config_show: ["config", "format"],
  cache_stats: ["format"],
  cache_clean: ["format"],
  version: ["format"],
  workspace_lint: ["config", "format", "jobs", "no_cache"],
  workspace_lint_fix: ["config", "format", "jobs", "no_cache"],
};

Deno.test("each tool takes exactly the seed's parameters, all optional", () => {
  for (const [name, params] of Object.entries(PARAMS)) {
    const def = tool(name);
    assert.deepEqual(Object.keys(def.inputSchema).sort(), params, name);
    assert.ok(z.object(def.inputSchema).safeParse({}).success, `${name}: every parameter is optional`);
    assert.equal(z.object(def.inputSchema).safeParse({ format: "xml" }).success, false, `${name}: format is json|toon`);
  }
});

Deno.test("read tools are read-only, idempotent, non-destructive and closed-world", () => {
  for (const name of ["lint", "format_check", "cache_stats", "rules", "config_show", "version"]) {
    assert.deepEqual(
      tool(name).annotations,
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      name,
    );
    assert.equal(tool(name).level, "read", name);
  }
});

Deno.test("mutating tools are destructive; workspace_lint is not read-only", () => {
  for (const name of ["lint_fix", "format_write", "cache_clean", "workspace_lint_fix"]) {
    assert.equal(tool(name).annotations.readOnlyHint, false, name);
    assert.equal(tool(name).annotations.destructiveHint, true, name);
    assert.equal(tool(name).level, "act", name);
  }
  assert.equal(tool("workspace_lint").annotations.readOnlyHint, false);
  assert.equal(tool("workspace_lint").level, "act", "it runs commands from poly.toml");
});

Deno.test("only the whole-project tools are tasks", () => {
  for (const name of Object.keys(PARAMS)) {
    assert.equal(tool(name).task === true, name.startsWith("workspace_"), name);
  }
});

Deno.test("the report tools declare the Report schema; every output schema carries the identity block", () => {
  for (const name of ["lint", "format_check", "lint_fix", "format_write", "workspace_lint", "workspace_lint_fix"]) {
    assert.equal(tool(name).outputSchema, Report, name);
  }
  for (const name of Object.keys(PARAMS)) {
    const schema = tool(name).outputSchema as z.ZodObject;
    assert.ok(schema instanceof z.ZodObject, `${name}: an object schema`);
    assert.ok("poly" in schema.shape, `${name}: has poly`);
  }
});
