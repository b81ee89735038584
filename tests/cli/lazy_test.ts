/**
 * Lazy loading: what `deno run` walks before poly starts. `deno run` builds the
 * module graph of every static and string-literal dynamic import before a module
 * runs, so whatever a command or a tool needs only once it runs is loaded through
 * the registry in lib/lazy/mod.ts. These tests hold the registry together (its
 * type and run-time specifiers, `deno compile`'s includes, the server's warm-up
 * list) and check, from Deno's own debug log, which source files `poly --version`,
 * `poly --help`, `poly mcp` and `poly lint` actually load.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { polyCommand, REPO } from "../_helpers/cli.ts";
import { lazy, LAZY_SPECIFIERS } from "../../lib/lazy/mod.ts";
import { LAZY_INCLUDES, RUNTIME_INCLUDES } from "../../scripts/_embed.ts";
import { TOOL_MODULES } from "../../tools/mod.ts";
import { MCP_DEFAULTS } from "../../lib/cli/commands/_mcp_run.ts";

const REGISTRY = join(REPO, "lib", "lazy", "mod.ts");
const ENTRY = /^\s*(\w+): lazyModule<typeof import\("([^"]+)"\)>\("([^"]+)"\),$/;

Deno.test("lazy registry: each entry imports at run time the module its type names, and the module exists", async () => {
  const lines = (await Deno.readTextFile(REGISTRY)).split("\n").filter((l) => /^\s*\w+: lazyModule</.test(l));
  const entries = lines.map((line) => {
    const m = ENTRY.exec(line);
    ok(m, `not a one-line registry entry: ${line.trim()}`);
    return { name: m[1], typed: m[2], loaded: m[3] };
  });
  deepEqual(entries.map((e) => e.name).sort(), Object.keys(lazy).sort(), "every entry is written in the one form");
  for (const { name, typed, loaded } of entries) {
    equal(loaded, typed, `${name}: the type names "${typed}" but "${loaded}" is imported`);
    equal(lazy[name as keyof typeof lazy].specifier, loaded, name);
    ok(loaded.startsWith("./") || loaded.startsWith("../"), `${name}: a local module (npm packages go behind one)`);
    await Deno.stat(join(dirname(REGISTRY), loaded));
  }
});

Deno.test("lazy registry: deno compile includes every lazily loaded module", () => {
  const paths = LAZY_SPECIFIERS.map((s) => relative(REPO, fileURLToPath(new URL(s, `file://${REGISTRY}`))));
  deepEqual([...LAZY_INCLUDES], paths);
  for (const path of paths) ok(RUNTIME_INCLUDES.includes(path), `${path} is not in RUNTIME_INCLUDES`);
});

Deno.test("the start-up paths import local modules statically or through the registry, never with a literal import()", async () => {
  const literal = /(?<!typeof\s)\bimport\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g;
  const files = [join(REPO, "main.ts")];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(e.name)) files.push(path);
    }
  };
  for (const dir of ["lib/cli", "lib/serve", "tools"]) await walk(join(REPO, dir));
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(literal)) {
      ok(false, `${relative(REPO, file)}: import("${m[1]}") makes deno run walk it at start: use lib/lazy/mod.ts`);
    }
  }
});

Deno.test("the server warms every module a tool loads lazily", async () => {
  const used = new Set<string>();
  const files = [join(REPO, "lib", "fleet", "tool_support.ts"), join(REPO, "lib", "serve", "_call.ts")];
  for await (const e of Deno.readDir(join(REPO, "tools"))) {
    if (e.name.endsWith(".ts")) files.push(join(REPO, "tools", e.name));
  }
  for (const file of files) {
    if (file.endsWith("tools/mod.ts")) continue;
    for (const m of (await Deno.readTextFile(file)).matchAll(/\blazy\.(\w+)\(/g)) used.add(m[1]);
  }
  ok(used.has("run") && used.has("identity"), [...used].join(", "));
  const warmed = new Set(Object.entries(lazy).filter(([, load]) => TOOL_MODULES.includes(load)).map(([name]) => name));
  for (const name of used) {
    ok(warmed.has(name), `lazy.${name} is used by a tool but not in TOOL_MODULES (tools/mod.ts)`);
  }
  equal(TOOL_MODULES[0], lazy.identity, "the identity block first (every call needs it)");
  equal(TOOL_MODULES[1], lazy.run, "then the lint and format tools' run");
});

Deno.test("a bare `poly mcp` skips the parser: it means exactly what the parser makes of it", async () => {
  const [{ map, or }, { run }, { COMMANDS }] = await Promise.all([
    lazy.optique(),
    lazy.optiqueRun(),
    lazy.commands(),
  ]);
  const parser = or(...COMMANDS.map((spec) => map(spec.parser, (value) => ({ spec, value }))));
  const parsed = run(parser, { programName: "poly", args: ["mcp"] }) as { value: unknown };
  deepEqual(parsed.value, MCP_DEFAULTS);
});

/** The repository's source files a poly process loads, from Deno's debug log. */
async function loaded(args: string[], stdin = ""): Promise<string[]> {
  const [exe, ...rest] = polyCommand();
  const cwd = await Deno.makeTempDir({ prefix: "poly-lazy-" });
  await Deno.writeTextFile(join(cwd, "a.py"), "x = 1\n");
  const child = new Deno.Command(exe, {
    args: [...rest, ...args],
    cwd,
    env: {
      DENO_LOG: "debug",
      NO_COLOR: "1",
      POLY_CACHE_HOME: join(cwd, ".cache"),
      POLY_STATE_HOME: join(cwd, ".state"),
      POLY_CLAUDE_MD: "off",
    },
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  if (stdin) await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const log = new TextDecoder().decode((await child.output()).stderr);
  const files = new Set<string>();
  for (const m of log.matchAll(/FileFetcher::fetch\S* - specifier: (file:\/\/\S+)/g)) {
    const path = fileURLToPath(m[1].replace(/,$/, ""));
    if (path.startsWith(REPO + "/") && !path.includes("/node_modules/")) files.add(relative(REPO, path));
  }
  ok(files.has("main.ts"), `the debug log names the modules Deno loads (got ${files.size})`);
  return [...files].sort();
}

const under = (files: string[], ...dirs: string[]) => files.filter((f) => dirs.some((d) => f.startsWith(d)));

Deno.test("poly --version and --help load no command implementation", async () => {
  const version = await loaded(["--version"]);
  deepEqual(under(version, "lib/cli/", "tools/", "lib/serve/", "lib/run/"), [], "--version loads no command");
  const help = await loaded(["--help"]);
  ok(help.includes("lib/cli/commands/lint.ts"), "--help loads the command list");
  deepEqual(
    help.filter((f) => !/^(main\.ts|deno\.json|lib\/main\.ts|lib\/(cli|lazy|errors|identity|debug)\/)/.test(f)),
    [],
  );
  deepEqual(under(help, "lib/identity/").filter((f) => !/\/(build|_stamp)\.ts$/.test(f)), []);
});

Deno.test("poly mcp answers initialize with only the server, the SDK and the tool definitions loaded", async () => {
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  // Without notifications/initialized the server never warms up: this is start-up alone.
  const files = await loaded(["mcp"], init + "\n");
  ok(files.includes("tools/lint.ts") && files.includes("lib/serve/stdio.ts"), files.join(" "));
  deepEqual(under(files, "lib/cli/commands/").filter((f) => !f.endsWith("/_mcp_run.ts")), [], "no parser, no commands");
  const heavy = [
    "lib/run/",
    "lib/engines/",
    "lib/rules/",
    "lib/config/",
    "lib/cache/",
    "lib/workspace/",
    "lib/fleet/ops/",
    "lib/gateway/mod.ts",
    "lib/access/mod.ts",
    "lib/identity/mod.ts",
    "lib/report/mod.ts",
    "lib/agents/",
    "tui/",
  ];
  deepEqual(under(files, ...heavy), [], "tool implementations load on first call (or in the warm-up)");
});

Deno.test("poly lint loads what linting needs, not the server, the fleet, the gateway or the dashboard", async () => {
  const files = await loaded(["lint", "--no-workspace", "a.py"]);
  ok(files.includes("lib/run/mod.ts"), files.join(" "));
  deepEqual(
    under(
      files,
      "tools/",
      "lib/serve/",
      "lib/fleet/ops/",
      "lib/gateway/mod.ts",
      "lib/access/mod.ts",
      "lib/agents/",
      "tui/",
    ),
    [],
  );
});
