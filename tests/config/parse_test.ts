import { assertEquals, assertMatch } from "./_assert.ts";
import { ConfigError } from "../../lib/errors/mod.ts";
import { parseConfigText, PolyConfigSchema, STARTER_CONFIG } from "../../lib/config/mod.ts";

function errorOf(text: string): ConfigError {
  try {
    parseConfigText(text, "/x/poly.toml", "poly.toml");
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("parseConfigText() accepts the starter config, which sets only defaults", () => {
  const file = parseConfigText(STARTER_CONFIG, "/x/poly.toml");
  assertEquals(PolyConfigSchema.parse(file.raw), PolyConfigSchema.parse({}));
});

Deno.test("parseConfigText() turns single strings into lists for extends and [discovery] exclude", () => {
  const file = parseConfigText('extends = "base.toml"\n[discovery]\nexclude = "build/"\n', "/x/poly.toml");
  assertEquals(file.raw, { extends: ["base.toml"], discovery: { exclude: ["build/"] } });
});

Deno.test("parseConfigText() keeps engine-specific keys in tool tables, with TOML dates as text", () => {
  const file = parseConfigText('[lint.python.ruff]\ntarget = "py312"\nsince = 2024-01-02\n', "/x/poly.toml");
  assertEquals(file.raw, { lint: { python: { ruff: { target: "py312", since: "2024-01-02" } } } });
});

Deno.test("parseConfigText() never takes a TOML date for a string", () => {
  assertEquals(
    errorOf("[cache]\ndir = 2024-01-02\n").detail,
    'invalid value for "cache.dir": expected a string, got a date-time',
  );
});

Deno.test("parseConfigText() reports the first problem in file order", () => {
  const error = errorOf('[defaults]\nline_length = "x"\n[lint.pyton.ruff]\n[cache]\nenabld = true\n');
  assertEquals(error.position, { file: "poly.toml", line: 2, column: 1 });
});

Deno.test("parseConfigText() prefers an unknown key to the missing key it explains", () => {
  assertEquals(errorOf('extends = [{ gti = "x" }]\n').detail, 'unknown key "extends[0].gti" (did you mean "git"?)');
});

Deno.test("parseConfigText() lists the allowed keys when no name is close", () => {
  assertEquals(
    errorOf("[cache]\nzzz = 1\n").detail,
    'unknown key "cache.zzz" (expected one of: "dir", "enabled", "remote", "remote_team")',
  );
});

Deno.test("parseConfigText() renders a syntax error with the line and a caret", () => {
  const error = errorOf("[defaults]\nline_length = 1 2\n");
  assertMatch(error.message, /^poly\.toml:2:\d+: invalid TOML: .+\n 2 \| line_length = 1 2\n {3}\| +\^$/);
});

Deno.test("parseConfigText() accepts every section lib/config documents", () => {
  const text = `extends = ["a.toml", { git = "https://example.com/s.git", revision = "v1", file = "x.toml" }]
[defaults]
line_length = 100
line_ending = "crlf"
final_newline = false
trim_trailing_whitespace = false
indent_width = 4
[discovery]
exclude = ["/gen", "build/"]
force_exclude = true
exclude_mode = "replace"
max_file_size = 1000
[lint.python.ruff]
enabled = true
select = ["E"]
ignore = ["E501"]
line-length = 88
[lint.python.ruff.rules.F401]
level = "warning"
[fmt.typescript.biome]
enabled = false
[per-file-ignores]
"tests/**" = ["S101"]
[rules]
dirs = ["rules"]
[tools.oxlint]
enabled = false
languages = ["typescript", "javascript"]
[cache]
enabled = false
dir = ".cache"
[workspace]
root = true
[workspace.jobs.typecheck]
command = "tsc"
`;
  const data = PolyConfigSchema.parse(parseConfigText(text, "/x/poly.toml").raw);
  assertEquals(data.lint.python.ruff["line-length"], 88);
  assertEquals(data.extends?.[1], { git: "https://example.com/s.git", revision: "v1", file: "x.toml" });
});

Deno.test("parseConfigText() reports a missing required key by name", () => {
  assertEquals(
    errorOf('[workspace.jobs.typecheck]\ncwd = "web"\n').detail,
    'missing key "workspace.jobs.typecheck.command": expected a string or an array',
  );
});
