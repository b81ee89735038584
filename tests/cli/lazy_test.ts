/**
 * Lazy loading: what `deno run` walks before poly starts. With Deno's
 * `lazy-dynamic-imports` (deno.json), a literal `import()` is walked only when it
 * runs, so whatever a command or a tool needs only once it runs sits behind one,
 * where it is used. These tests check the setting, the server's warm-up list and,
 * from Deno's own debug log, which source files `poly --version`, `poly --help`,
 * `poly mcp`, `poly lint` and `poly hook agent` actually load.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { polyCommand, REPO } from "../_helpers/cli.ts";
import { MCP_DEFAULTS } from "../../lib/cli/commands/_mcp_run.ts";
import { RACY_MS } from "../../lib/fs/read_log.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("deno.json turns on lazy-dynamic-imports (every lazy import() depends on it)", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  ok((config.unstable as string[]).includes("lazy-dynamic-imports"), JSON.stringify(config.unstable));
});

/** The repository-relative modules a file imports with a literal `import()`. */
async function literalImports(file: string): Promise<string[]> {
  const out: string[] = [];
  for (const m of (await Deno.readTextFile(file)).matchAll(/(?<!typeof\s)\bimport\(\s*"(\.\.?\/[^"]+)"\s*\)/g)) {
    out.push(relative(REPO, resolve(dirname(file), m[1])));
  }
  return out;
}

Deno.test("the server warms every module a tool loads lazily, lint and format first", async () => {
  const used = new Set<string>();
  const files = [join(REPO, "tools", "serve", "_call.ts")];
  for await (const e of Deno.readDir(join(REPO, "tools"))) {
    if (e.name.endsWith(".ts") && e.name !== "mod.ts") files.push(join(REPO, "tools", e.name));
  }
  for (const file of files) for (const path of await literalImports(file)) used.add(path);
  ok(used.has("lib/run/mod.ts") && used.has("lib/identity/mod.ts"), [...used].join(", "));
  const warmed = await literalImports(join(REPO, "tools", "mod.ts"));
  for (const path of used) {
    ok(warmed.includes(path), `${path} is loaded by a tool but not in TOOL_MODULES (tools/mod.ts)`);
  }
  equal(warmed[0], "lib/identity/mod.ts", "the identity block first (every call needs it)");
  equal(warmed[1], "lib/run/mod.ts", "then the lint and format tools' run");
});

Deno.test("a bare `poly mcp` skips the parser: it means exactly what the parser makes of it", async () => {
  const [{ map, or }, { run }, { COMMANDS }] = await Promise.all([
    import("../../lib/cli/_optique.ts"),
    import("../../lib/cli/_optique_run.ts"),
    import("../../lib/cli/commands/mod.ts"),
  ]);
  const parser = or(...COMMANDS.map((spec) => map(spec.parser, (value) => ({ spec, value }))));
  const parsed = run(parser, { programName: "poly", args: ["mcp"] }) as { value: unknown };
  deepEqual(parsed.value, MCP_DEFAULTS);
});

/** A folder with one Python file, where poly keeps its cache and state. */
async function lazyTree(): Promise<string> {
  const cwd = join(await tempDir({ prefix: "poly-lazy-" }), "tree"); // its homes go beside it, in the same folder
  await Deno.mkdir(join(cwd, ".git"), { recursive: true }); // its own repository: nothing above it is read
  await Deno.writeTextFile(join(cwd, "a.py"), "x = 1\n");
  return cwd;
}

/**
 * The repository's source files a poly process loads (in `cwd`, a {@link lazyTree}), from Deno's debug log. Its
 * homes are beside `homes` (default: `cwd`).
 */
async function loaded(args: string[], stdin = "", cwd?: string, homes?: string): Promise<string[]> {
  const [exe, ...rest] = polyCommand();
  cwd ??= await lazyTree();
  homes ??= cwd;
  const child = new Deno.Command(exe, {
    args: [...rest, ...args],
    cwd,
    env: {
      DENO_LOG: "debug",
      NO_COLOR: "1",
      POLY_CACHE_HOME: `${homes}.cache`, // beside the tree: a run in it lists what it reads
      POLY_STATE_HOME: `${homes}.state`,
      POLY_HOOK_STATE_DIR: `${homes}.hooks`, // `poly hook agent` keeps its session's file there, not in /tmp
      POLY_CLAUDE_MD: "off",
      POLY_BUNDLE: "off", // what the source loads (a bundle, where one is built, is its chunks)
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
  deepEqual(
    under(version, "lib/cli/", "tools/", "lib/run/").filter((f) =>
      !["lib/cli/program.ts", "lib/cli/main.ts", "lib/cli/commands/table.ts"].includes(f)
    ),
    [],
    "--version loads no command (only the program, the command line's main and the table of loaders)",
  );
  const help = await loaded(["--help"]);
  ok(help.includes("lib/cli/commands/lint.ts"), "--help loads the command list");
  // Besides the command line: the lists parsers offer as choices, each from its one source (engines,
  // roles, proposal statuses, cache namespaces), in small modules that load nothing else of poly's; and the
  // streams' writer (lib/io/mod.ts, which loads nothing either).
  const lists = [
    "lib/io/mod.ts",
    "lib/access/errors.ts",
    "lib/access/levels.ts",
    "lib/access/proposals.ts",
    "lib/cache/types.ts",
    "lib/fleet/types.ts",
  ];
  deepEqual(
    help.filter((f) => !/^(main\.ts|deno\.json|lib\/(cli|errors|identity|debug)\/)/.test(f) && !lists.includes(f)),
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
  ok(files.includes("tools/lint.ts") && files.includes("tools/serve/stdio.ts"), files.join(" "));
  deepEqual(
    under(files, "lib/cli/commands/").filter((f) => !/\/(_mcp_run|table)\.ts$/.test(f)),
    [],
    "no parser, no commands",
  );
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
      "lib/fleet/ops/",
      "lib/gateway/mod.ts",
      "lib/access/mod.ts",
      "lib/agents/",
      "tui/",
    ),
    [],
  );
});

Deno.test("a first poly lint in another checkout loads no schema: what the schemas made of its tables is known", async () => {
  const first = await lazyTree();
  await loaded(["lint", "--no-workspace"], "", first);
  // The same tree in another folder, with the first one's homes: a new clone on a machine where poly has run.
  const files = await loaded(["lint", "--no-workspace"], "", await lazyTree(), first);
  ok(files.includes("lib/run/mod.ts"), files.join(" "));
  deepEqual(under(files, "lib/config/_schemas.ts", "lib/config/schema.ts", "lib/rules/config.ts"), [], files.join(" "));
});

Deno.test("a replayed poly lint loads no parser, no command module and no run: the replay and the report", async () => {
  const cwd = await lazyTree();
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 200)); // a run is kept only once what it read is settled
  await loaded(["lint", "--no-workspace"], "", cwd);
  const files = await loaded(["lint", "--no-workspace"], "", cwd);
  ok(files.includes("lib/cache/replay.ts") && files.includes("lib/report/encode.ts"), files.join(" "));
  deepEqual(
    under(files, "lib/cli/_optique.ts", "lib/cli/commands/lint.ts", "lib/run/", "lib/config/", "lib/engines/"),
    [],
    files.join(" "),
  );
});

Deno.test("poly hook agent loads its own command, not the command list, the run or the server", async () => {
  const files = await loaded(["hook", "agent"], JSON.stringify({ hook_event_name: "SessionStart" }));
  ok(files.includes("lib/cli/commands/hook.ts"), files.join(" "));
  deepEqual(under(files, "lib/cli/commands/lint.ts", "lib/cli/commands/mcp.ts", "lib/cli/commands/mod.ts"), []);
  deepEqual(under(files, "lib/run/", "lib/engines/", "tools/", "tui/"), []);
});
