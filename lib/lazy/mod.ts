/**
 * The one registry of lazily loaded modules: everything a command or a tool
 * needs only once it runs is loaded through here.
 *
 * Why: before a module runs, `deno run` builds the module graph of it and of
 * everything reachable through static imports AND string-literal dynamic imports
 * (`await import("../run/mod.ts")`), npm packages included. A literal
 * `import()` inside a handler therefore still costs its whole subgraph at start
 * (with `nodeModulesDir: "auto"`, each npm package is also re-verified under a
 * file lock). The loaders below import a specifier held in a variable, which
 * `deno run` cannot see, so a module's graph is walked only when it is first
 * loaded.
 *
 * Each entry names its module twice, on one line: once in a type-only
 * `typeof import(...)` (so `deno check` type-checks the module and every use of
 * it; `deno run` ignores type-only references) and once as the specifier it
 * imports at run time. tests/cli/lazy_test.ts checks that the two agree and that
 * `deno compile` embeds every entry (scripts/_embed.ts derives its `--include`
 * list from {@link LAZY_SPECIFIERS}).
 *
 * @example
 * ```ts
 * import { lazy } from "../lazy/mod.ts";
 * const { runLint } = await lazy.run();
 * ```
 *
 * @module
 */

/** A lazily loaded module: call it to import the module. */
export interface LazyModule<M> {
  (): Promise<M>;
  /** The module's specifier, relative to this file. */
  readonly specifier: string;
}

function lazyModule<M>(specifier: string): LazyModule<M> {
  // A variable specifier: invisible to `deno run`'s start-up graph walk.
  const load = () => import(specifier) as Promise<M>;
  return Object.assign(load, { specifier });
}

/** Every lazily loaded module, by name. */
export const lazy = {
  // The command line: main.ts loads the command list once argv needs it.
  optique: lazyModule<typeof import("../cli/_optique.ts")>("../cli/_optique.ts"),
  optiqueRun: lazyModule<typeof import("../cli/_optique_run.ts")>("../cli/_optique_run.ts"),
  lintCommand: lazyModule<typeof import("../cli/commands/lint.ts")>("../cli/commands/lint.ts"),
  fmtCommand: lazyModule<typeof import("../cli/commands/fmt.ts")>("../cli/commands/fmt.ts"),
  commands: lazyModule<typeof import("../cli/commands/mod.ts")>("../cli/commands/mod.ts"),
  // Serving MCP.
  mcpRun: lazyModule<typeof import("../cli/commands/_mcp_run.ts")>("../cli/commands/_mcp_run.ts"),
  serveDeps: lazyModule<typeof import("../serve/_deps.ts")>("../serve/_deps.ts"),
  serveStdio: lazyModule<typeof import("../serve/stdio.ts")>("../serve/stdio.ts"),
  serveHttp: lazyModule<typeof import("../serve/http.ts")>("../serve/http.ts"),
  serveHttpListen: lazyModule<typeof import("../serve/http_listen.ts")>("../serve/http_listen.ts"),
  serveHttpClient: lazyModule<typeof import("../serve/http_client.ts")>("../serve/http_client.ts"),
  serveCall: lazyModule<typeof import("../serve/_call.ts")>("../serve/_call.ts"),
  tools: lazyModule<typeof import("../../tools/mod.ts")>("../../tools/mod.ts"),
  // Lint, format, reports, configuration, caches, rules.
  run: lazyModule<typeof import("../run/mod.ts")>("../run/mod.ts"),
  workspace: lazyModule<typeof import("../workspace/mod.ts")>("../workspace/mod.ts"),
  runShard: lazyModule<typeof import("../run/shard.ts")>("../run/shard.ts"),
  reportMerge: lazyModule<typeof import("../report/merge.ts")>("../report/merge.ts"),
  cacheRemote: lazyModule<typeof import("../cache/remote/mod.ts")>("../cache/remote/mod.ts"),
  report: lazyModule<typeof import("../report/mod.ts")>("../report/mod.ts"),
  // What a run's command needs of reports: the encoders and the exit code, without the
  // schema (zod) that report/mod.ts also exports.
  reportEncode: lazyModule<typeof import("../report/encode.ts")>("../report/encode.ts"),
  reportExit: lazyModule<typeof import("../report/exit.ts")>("../report/exit.ts"),
  reportJson: lazyModule<typeof import("../report/json.ts")>("../report/json.ts"),
  toon: lazyModule<typeof import("../report/toon.ts")>("../report/toon.ts"),
  config: lazyModule<typeof import("../config/mod.ts")>("../config/mod.ts"),
  configImport: lazyModule<typeof import("../config/native/import.ts")>("../config/native/import.ts"),
  configSchemas: lazyModule<typeof import("../config/_schemas.ts")>("../config/_schemas.ts"),
  biomeSchema: lazyModule<typeof import("../config/_biome_schema.ts")>("../config/_biome_schema.ts"),
  cache: lazyModule<typeof import("../cache/mod.ts")>("../cache/mod.ts"),
  cacheDb: lazyModule<typeof import("../cache/db.ts")>("../cache/db.ts"),
  rulesParse: lazyModule<typeof import("../rules/_parse.ts")>("../rules/_parse.ts"),
  rulesNapi: lazyModule<typeof import("../rules/_napi.ts")>("../rules/_napi.ts"),
  rulesReport: lazyModule<typeof import("../rules/report.ts")>("../rules/report.ts"),
  rulesHuman: lazyModule<typeof import("../rules/human.ts")>("../rules/human.ts"),
  identity: lazyModule<typeof import("../identity/mod.ts")>("../identity/mod.ts"),
  identityCode: lazyModule<typeof import("../identity/code.ts")>("../identity/code.ts"),
  identityEngines: lazyModule<typeof import("../identity/engines.ts")>("../identity/engines.ts"),
  doctor: lazyModule<typeof import("../doctor/mod.ts")>("../doctor/mod.ts"),
  fsAtomic: lazyModule<typeof import("../fs/atomic.ts")>("../fs/atomic.ts"),
  store: lazyModule<typeof import("../store/mod.ts")>("../store/mod.ts"),
  // Hooks and the managed CLAUDE.md block.
  hooks: lazyModule<typeof import("../hooks/mod.ts")>("../hooks/mod.ts"),
  hookAgent: lazyModule<typeof import("../hooks/agent/hook.ts")>("../hooks/agent/hook.ts"),
  agents: lazyModule<typeof import("../agents/mod.ts")>("../agents/mod.ts"),
  // The agent fleet.
  fleetContext: lazyModule<typeof import("../fleet/context.ts")>("../fleet/context.ts"),
  fleetConfig: lazyModule<typeof import("../fleet/_config_load.ts")>("../fleet/_config_load.ts"),
  fleetAux: lazyModule<typeof import("../fleet/ops/aux.ts")>("../fleet/ops/aux.ts"),
  fleetDecide: lazyModule<typeof import("../fleet/ops/decide.ts")>("../fleet/ops/decide.ts"),
  fleetDelegate: lazyModule<typeof import("../fleet/ops/delegate.ts")>("../fleet/ops/delegate.ts"),
  fleetFanout: lazyModule<typeof import("../fleet/ops/fanout.ts")>("../fleet/ops/fanout.ts"),
  fleetFollowup: lazyModule<typeof import("../fleet/ops/followup.ts")>("../fleet/ops/followup.ts"),
  fleetImage: lazyModule<typeof import("../fleet/ops/image.ts")>("../fleet/ops/image.ts"),
  fleetSessions: lazyModule<typeof import("../fleet/ops/sessions.ts")>("../fleet/ops/sessions.ts"),
  fleetStats: lazyModule<typeof import("../fleet/ops/stats.ts")>("../fleet/ops/stats.ts"),
  // The MCP gateway.
  gateway: lazyModule<typeof import("../gateway/mod.ts")>("../gateway/mod.ts"),
  gatewayGrants: lazyModule<typeof import("../gateway/grants.ts")>("../gateway/grants.ts"),
  gatewayRender: lazyModule<typeof import("../gateway/render.ts")>("../gateway/render.ts"),
  gatewayCli: lazyModule<typeof import("../gateway/cli_support.ts")>("../gateway/cli_support.ts"),
  // Members, tokens and approvals.
  access: lazyModule<typeof import("../access/mod.ts")>("../access/mod.ts"),
  accessConfig: lazyModule<typeof import("../access/config.ts")>("../access/config.ts"),
  accessRender: lazyModule<typeof import("../access/render.ts")>("../access/render.ts"),
  // Engines' npm packages (each engine loads its own on first use).
  npmClangFormat: lazyModule<typeof import("../engines/npm/clang_format.ts")>("../engines/npm/clang_format.ts"),
  npmGofmt: lazyModule<typeof import("../engines/npm/gofmt.ts")>("../engines/npm/gofmt.ts"),
  npmLuafmt: lazyModule<typeof import("../engines/npm/luafmt.ts")>("../engines/npm/luafmt.ts"),
  npmMago: lazyModule<typeof import("../engines/npm/mago.ts")>("../engines/npm/mago.ts"),
  npmShfmt: lazyModule<typeof import("../engines/npm/shfmt.ts")>("../engines/npm/shfmt.ts"),
  npmSqlfmt: lazyModule<typeof import("../engines/npm/sqlfmt.ts")>("../engines/npm/sqlfmt.ts"),
  npmWebfmt: lazyModule<typeof import("../engines/npm/webfmt.ts")>("../engines/npm/webfmt.ts"),
  npmDprint: lazyModule<typeof import("../engines/npm/dprint.ts")>("../engines/npm/dprint.ts"),
  npmRuff: lazyModule<typeof import("../engines/npm/ruff.ts")>("../engines/npm/ruff.ts"),
  npmToml: lazyModule<typeof import("../engines/npm/toml.ts")>("../engines/npm/toml.ts"),
  npmYaml: lazyModule<typeof import("../engines/npm/yaml.ts")>("../engines/npm/yaml.ts"),
  npmPrettier: lazyModule<typeof import("../engines/npm/prettier.ts")>("../engines/npm/prettier.ts"),
  npmMarkdownlint: lazyModule<typeof import("../engines/npm/markdownlint.ts")>("../engines/npm/markdownlint.ts"),
  npmBiome: lazyModule<typeof import("../engines/npm/biome.ts")>("../engines/npm/biome.ts"),
  npmPMap: lazyModule<typeof import("../engines/npm/p_map.ts")>("../engines/npm/p_map.ts"),
  // The resident daemon.
  daemonLive: lazyModule<typeof import("../daemon/live.ts")>("../daemon/live.ts"),
  daemonClient: lazyModule<typeof import("../daemon/client.ts")>("../daemon/client.ts"),
  daemonRegistry: lazyModule<typeof import("../daemon/registry.ts")>("../daemon/registry.ts"),
  daemonServer: lazyModule<typeof import("../daemon/server.ts")>("../daemon/server.ts"),
  // The terminal dashboard.
  tui: lazyModule<typeof import("../../tui/mod.ts")>("../../tui/mod.ts"),
  tuiLive: lazyModule<typeof import("../../tui/live.ts")>("../../tui/live.ts"),
} as const;

/** The name of a lazily loaded module. */
export type LazyName = keyof typeof lazy;

/** Every entry's specifier, relative to this file (`deno compile` must `--include` each). */
export const LAZY_SPECIFIERS: readonly string[] = Object.values(lazy).map((m) => m.specifier);
