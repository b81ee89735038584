/**
 * A fixture for the dashboard: a temporary state database created with the real
 * migrations (`openStore`) holding sessions, ratings, engine runs, tool calls,
 * upstream servers, catalogs, grants and an open operation, and a temporary
 * cache home with three repository caches (one of them damaged). Every time is
 * fixed relative to {@link NOW}, so frames rendered with `fixedClock(NOW)` are
 * the same on every machine.
 *
 * Run it to get a home to look at: `deno run -P=test tests/tui/_fixture.ts DIR`,
 * then `POLY_STATE_HOME=DIR/state POLY_CACHE_HOME=DIR/cache poly dash`.
 *
 * @module
 */
import { join } from "node:path";
import { openStore } from "../../lib/store/mod.ts";
import { openCache } from "../../lib/cache/mod.ts";
import { cacheDirFor } from "../../lib/cache/db.ts";
import { toolFingerprint, toolId } from "../../lib/gateway/catalog.ts";
import type { DatabaseSync } from "node:sqlite";
import { budgetNote, explorePrompt, webLookupPrompt, workerPrompt } from "../../lib/fleet/prompts.ts";
import { DEFAULT_TIMEOUT_MS } from "../../lib/fleet/defaults.ts";
import { scrub } from "../../lib/fleet/scrub.ts";
import { tempDir } from "../_helpers/temp.ts";

/** The fixture's "now": 2025-11-29 12:00:00 UTC. */
export const NOW = Date.UTC(2025, 10, 29, 12, 0, 0);

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** The repository the dashboard is "started in". */
export const CURRENT_ANCHOR = "/work/app";
/** Another repository with a cache (its name is not recorded in its cache). */
export const OTHER_ANCHOR = "/work/lib";

/** Paths of a fixture home. */
export interface FixtureHome {
  base: string;
  stateHome: string;
  statePath: string;
  cacheHome: string;
  /** The cache folder of {@link CURRENT_ANCHOR}. */
  currentCacheDir: string;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

interface SessionSeed {
  handle: string;
  tool: string;
  model: string | null;
  effort?: string;
  level: number | null;
  readOnly?: boolean;
  web?: boolean;
  parent?: string;
  turns?: number;
  /** What the caller asked; the stored preview is what the fleet sent the engine, cut as it cuts it. */
  preview: string;
  /** The latest answer as the store keeps it. */
  answer?: string;
  /** Milliseconds before "now". */
  created: number;
  updated: number;
  rating?: [number, string | null];
  /** Calls naming the session: [tool, ok or error kind, latency ms, chars]. */
  calls?: [string, "ok" | string, number, number][];
}

/** The sessions of the fixture, newest last (times are before "now"). */
export const SESSIONS: SessionSeed[] = [
  {
    handle: "cursor:cur-5a1",
    tool: "delegate",
    model: "gpt-5",
    level: 5,
    preview: "Rewrite the release script in Deno",
    created: 6 * DAY,
    updated: 6 * DAY,
    rating: [1, "broke the build"],
    calls: [["delegate", "ok", 240_000, 5200]],
  },
  {
    handle: "codex:019a-e5",
    tool: "fan_out",
    model: "gpt-5.1-codex",
    effort: "medium",
    level: 3,
    preview: "Compare three ways to cache engine results",
    created: 3 * DAY,
    updated: 3 * DAY,
  },
  {
    handle: "claude:5f2c-d4",
    tool: "delegate",
    model: "opus",
    level: 4,
    preview: "Design the schema migration for members and tokens",
    created: 2 * DAY,
    updated: 2 * DAY,
    rating: [5, null],
    calls: [["delegate", "ok", 185_000, 8400]],
  },
  {
    handle: "opencode:ses_9",
    tool: "delegate",
    model: "openrouter/qwen3-coder",
    level: 2,
    preview: "Write tests for the TOML config loader",
    created: DAY - 3 * HOUR,
    updated: DAY,
    rating: [2, "missed the nested config cases"],
    calls: [["delegate", "ok", 95_000, 1800]],
  },
  {
    handle: "grok:g-77",
    tool: "web_lookup",
    model: null,
    level: null,
    readOnly: true,
    web: true,
    preview: "What changed in the MCP spec 2025-11-25 about tasks?",
    created: 20 * HOUR,
    updated: 20 * HOUR,
    calls: [["web_lookup", "ok", 12_400, 950]],
  },
  {
    handle: "codex:019a-c3",
    tool: "fast_delegate",
    model: "gpt-5.1-codex-mini",
    level: 1,
    preview: "Rename the helper to parseHandle\nand update its callers",
    created: 5 * HOUR,
    updated: 4 * HOUR,
    turns: 2,
    rating: [3, null],
    calls: [["fast_delegate", "ok", 8_000, 400], ["follow_up", "engine_failed", 3_000, 120]],
  },
  {
    handle: "claude:5f2c-b2",
    tool: "explore",
    model: "sonnet",
    level: null,
    readOnly: true,
    preview: "Where does the cache key include the build identity?",
    answer: "In lib/cache/key.ts: cacheKey() hashes the build identity second, after the cache format version. " +
      "buildIdentity() (lib/cache/build.ts) is the version for a release and adds the executable's inode, size " +
      "and mtime for a dev build, so a rebuilt binary never reads another build's results.",
    created: 3 * HOUR,
    updated: 3 * HOUR,
    rating: [4, null],
    calls: [["explore", "ok", 41_000, 1300]],
  },
  {
    handle: "codex:019a-a1",
    tool: "delegate",
    model: "gpt-5.1-codex",
    effort: "high",
    level: 3,
    turns: 2,
    parent: undefined,
    preview: "Add a --verbose flag to the CLI and document it in the README; keep the help output stable.",
    answer: "Added --verbose to the lint and fmt commands (lib/cli/commands/_run_options.ts), documented it in " +
      "README.md and updated the help golden. " + "Tests: 14 passed. ".repeat(60),
    created: 2 * HOUR,
    updated: 90 * MIN,
    rating: [5, "exactly right"],
    calls: [["delegate", "ok", 62_000, 2100], ["follow_up", "ok", 30_500, 900]],
  },
];

/** The prompt the fleet sends for `tool` with the caller's `asked` (lib/fleet/ops), stored as lib/fleet/run.ts stores it. */
export function storedPreview(tool: string, asked: string): string {
  const budget = budgetNote(DEFAULT_TIMEOUT_MS);
  const sent = tool === "explore"
    ? explorePrompt({ question: asked })
    : tool === "web_lookup"
    ? webLookupPrompt({ query: asked })
    : tool === "fan_out"
    ? workerPrompt(asked, 1, 3)
    : asked + budget;
  return scrub(sent).slice(0, 200);
}

function insertFleet(db: DatabaseSync, now: number): void {
  const session = db.prepare(
    `INSERT INTO fleet_sessions (handle, engine, session_id, tool, model, effort, level, cwd, read_only, web, parent, turns, preview,
       answer, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const rating = db.prepare("INSERT INTO fleet_ratings (handle, score, note, rated_at) VALUES (?, ?, ?, ?)");
  const call = db.prepare(
    `INSERT INTO fleet_calls (at_ms, tool, engine, handle, ok, error_kind, out_chars, raw_chars, latency_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const run = db.prepare(
    "INSERT INTO fleet_runs (at_ms, engine, model, tool, outcome, latency_ms) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const s of SESSIONS) {
    const [engine, id] = [s.handle.slice(0, s.handle.indexOf(":")), s.handle.slice(s.handle.indexOf(":") + 1)];
    session.run(
      s.handle,
      engine,
      id,
      s.tool,
      s.model,
      s.effort ?? null,
      s.level,
      "/work/app",
      s.readOnly ? 1 : 0,
      s.web ? 1 : 0,
      s.parent ?? null,
      s.turns ?? 1,
      storedPreview(s.tool, s.preview),
      s.answer?.slice(0, 2000) ?? null,
      iso(now - s.created),
      iso(now - s.updated),
    );
    if (s.rating) rating.run(s.handle, s.rating[0], s.rating[1], iso(now - s.updated + 5 * MIN));
    (s.calls ?? []).forEach(([tool, outcome, latency, chars], i) => {
      const at = now - s.created + i * (s.created - s.updated || MIN);
      const ok = outcome === "ok";
      call.run(
        at,
        tool,
        engine,
        ok ? s.handle : s.handle,
        ok ? 1 : 0,
        ok ? null : outcome,
        chars,
        ok ? chars * 9 : 0,
        latency,
      );
    });
  }
  // Calls that name no session: statistics, ratings, failures — spread over the last 30 days.
  for (let d = 0; d < 30; d++) {
    const day = now - d * DAY - 2 * HOUR;
    const n = (d * 7) % 5;
    for (let i = 0; i < n; i++) call.run(day - i * MIN, "explore", "claude", null, 1, null, 600 + 10 * i, 7000, 20_000);
    if (d % 3 === 0) call.run(day - 30 * MIN, "bridge_stats", null, null, 1, null, 1500, 0, 40);
    if (d % 4 === 1) call.run(day - 40 * MIN, "delegate", "codex", null, 0, "engine_failed", 180, 0, 5_000);
  }
  call.run(now - 35 * DAY, "delegate", "codex", null, 1, null, 999, 9000, 60_000); // older than the 30 days shown
  for (const s of SESSIONS.filter((x) => x.rating)) {
    call.run(now - s.updated + 5 * MIN, "rate", s.handle.split(":")[0], s.handle, 1, null, 80, 0, 3);
  }
  // Engine runs (health): codex mostly fine, claude out of quota 30 minutes ago, grok timing out.
  for (let i = 0; i < 5; i++) {
    run.run(now - (i + 1) * HOUR, "codex", "gpt-5.1-codex", "delegate", i === 2 ? "error" : "ok", 40_000 + i * 5_000);
  }
  run.run(now - 3 * HOUR, "claude", "sonnet", "explore", "ok", 41_000);
  run.run(now - 30 * MIN, "claude", "opus", "delegate", "quota_exhausted", 2_000);
  run.run(now - 20 * HOUR, "grok", null, "web_lookup", "ok", 12_400);
  run.run(now - 10 * HOUR, "grok", null, "web_lookup", "timeout", 120_000);
  run.run(now - 9 * HOUR, "grok", null, "web_lookup", "timeout", 120_000);
  run.run(now - 2 * DAY, "opencode", null, "delegate", "ok", 95_000); // outside the 24 h window
}

function insertGateway(db: DatabaseSync, now: number): void {
  const server = db.prepare(
    `INSERT INTO gateway_servers (name, transport, url, command, cwd, auth, secret, oauth_status, oauth_config, catalog_digest,
       revision, enabled, created_at, updated_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const tool = db.prepare(
    "INSERT INTO gateway_tools (server, tool_id, name, position, fingerprint, definition) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const grant = db.prepare(
    "INSERT INTO gateway_grants (server, tool_id, mode, fingerprint, verifiers, granted_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const def = (name: string, description: string) => ({ name, description, inputSchema: { type: "object" } });
  const catalogs: Record<string, ReturnType<typeof def>[]> = {
    docs: [def("search", "Search pages"), def("fetch_page", "Fetch a page"), def("update_page", "Update a page")],
    files: [def("list_files", "List files"), def("read_file", "Read a file")],
  };
  server.run(
    "docs",
    "http",
    "https://docs.example.test/mcp",
    null,
    null,
    "oauth",
    "sealed:v1:…",
    "connected",
    null,
    "9c1e4f2ab07d5e33aa01",
    4,
    1,
    iso(now - 10 * DAY),
    iso(now - 2 * DAY),
    null,
  );
  server.run(
    "files",
    "stdio",
    null,
    JSON.stringify(["npx", "-y", "files-mcp", "--root", "/work/app"]),
    "/work/app",
    "none",
    null,
    null,
    null,
    "4b7700aa11cc22dd33ee",
    2,
    1,
    iso(now - 5 * DAY),
    iso(now - 5 * DAY),
    null,
  );
  server.run(
    "legacy",
    "http",
    "https://legacy.example.test/mcp",
    null,
    null,
    "bearer",
    "sealed:v1:…",
    null,
    null,
    null,
    3,
    0,
    iso(now - 40 * DAY),
    iso(now - 20 * DAY),
    iso(now - 20 * DAY),
  );
  for (const [name, defs] of Object.entries(catalogs)) {
    defs.forEach((d, i) => tool.run(name, toolId(d.name), d.name, i, toolFingerprint(d), JSON.stringify(d)));
  }
  const fp = (d: ReturnType<typeof def>) => toolFingerprint(d);
  const [search, fetchPage, updatePage] = catalogs.docs;
  grant.run("docs", toolId("search"), "read", fp(search), "[]", iso(now - 9 * DAY));
  grant.run(
    "docs",
    toolId("fetch_page"),
    "read",
    fp(def("fetch_page", "Fetch a page (old text)")),
    "[]",
    iso(now - 9 * DAY),
  );
  grant.run(
    "docs",
    toolId("update_page"),
    "write",
    fp(updatePage),
    JSON.stringify([toolId("search")]),
    iso(now - 8 * DAY),
  );
  grant.run("docs", toolId("delete_page"), "write", "00ff", JSON.stringify([toolId("fetch_page")]), iso(now - 8 * DAY));
  void fetchPage;
  db.prepare(
    `INSERT INTO gateway_ops (id, server, kind, tool_id, tool_name, fingerprint, profile, arguments, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    "op-1",
    "docs",
    "write",
    toolId("update_page"),
    "update_page",
    fp(updatePage),
    "default",
    "{}",
    "unknown",
    iso(now - HOUR),
    iso(now - HOUR),
  );
}

function insertAccess(db: DatabaseSync, now: number): void {
  const member = db.prepare("INSERT INTO access_members (name, role, created_at, updated_at) VALUES (?, ?, ?, ?)");
  member.run("ana", "admin", iso(now - 30 * DAY), iso(now - 30 * DAY));
  member.run("vic", "viewer", iso(now - 12 * DAY), iso(now - 12 * DAY));
  const token = db.prepare(
    `INSERT INTO access_tokens (id, name, member, hash, access, approvals, created_at, expires_at, revoked_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  token.run(
    "tok_1a2b3c4d5e6f",
    "laptop",
    "ana",
    "a".repeat(64),
    "act",
    1,
    iso(now - 20 * DAY),
    null,
    null,
    iso(now - HOUR),
  );
  token.run(
    "tok_0f9e8d7c6b5a",
    "ci",
    "vic",
    "b".repeat(64),
    "read",
    0,
    iso(now - 10 * DAY),
    null,
    iso(now - 2 * DAY),
    null,
  );
  const proposal = db.prepare(
    `INSERT INTO access_proposals (id, tool, arguments, root, preview, proposed_by, token_id, status, created_at,
       decided_by, decided_at, result, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  proposal.run(
    "prop_5e5e5e5e5e5e",
    "format_write",
    JSON.stringify({ paths: ["src/config.py"] }),
    "/work/app",
    JSON.stringify({
      kind: "diff",
      summary: "format src/config.py (1 file changes)",
      diff: "--- a/src/config.py\n+++ b/src/config.py\n@@ -1 +1 @@\n-x = {  'a':1 }\n+x = {\"a\": 1}\n",
    }),
    "ana",
    "tok_1a2b3c4d5e6f",
    "pending",
    iso(now - 20 * MIN),
    null,
    null,
    null,
    null,
  );
  proposal.run(
    "prop_1d1d1d1d1d1d",
    "lint_fix",
    JSON.stringify({ paths: ["lib"] }),
    "/work/app",
    JSON.stringify({ kind: "diff", summary: "fix 3 findings in 2 files", diff: "" }),
    "ana",
    "tok_1a2b3c4d5e6f",
    "applied",
    iso(now - DAY),
    "owner (dashboard)",
    iso(now - DAY + 5 * MIN),
    JSON.stringify({ isError: false, text: "fixed 3 findings" }),
    iso(now - DAY + 5 * MIN),
  );
}

/** Fills a state database (migrated by `openStore`), times relative to `now`. */
export function fillStore(path: string, now = NOW): void {
  const db = openStore({ path });
  try {
    db.exec("BEGIN IMMEDIATE");
    insertFleet(db, now);
    insertGateway(db, now);
    insertAccess(db, now);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** Creates the cache of `anchor` under `home` with `entries` per namespace, used by `runs` runs at fixed times before `now`. */
export async function fillCache(
  home: string,
  anchor: string,
  entries: Record<"lint" | "fmt" | "rules", number>,
  runs: number,
  now = NOW,
): Promise<void> {
  for (let r = 0; r < runs; r++) {
    const cache = await openCache({ anchor, root: home, runId: `run-${r}` });
    for (const ns of ["lint", "fmt", "rules"] as const) {
      for (let i = 0; i < entries[ns]; i++) {
        const key = `${ns}-${String(i).padStart(4, "0")}`.padEnd(64, "0");
        if (cache.get(ns, key) === undefined) cache.set(ns, key, { file: `src/f${i}.ts`, diagnostics: [] });
      }
      cache.flush();
    }
    // A lint check records the files it read in the stat index (absolute paths), as lib/run/prepass.ts does.
    const stamp = { size: 10, mtime: now - DAY, ctime: now - DAY, digest: "0".repeat(64) };
    cache.recordFiles(
      Array.from(
        { length: entries.lint },
        (_, i) => ({ path: join(anchor, "src", `f${i}.ts`), ino: 100 + i, ...stamp }),
      ),
    );
    cache.flush();
    cache.close();
  }
  // Fixed run times, so the detail view is the same every time.
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(join(cacheDirFor(anchor, home), "cache.db"));
  db.prepare("UPDATE runs SET at = ? WHERE run = ?").run(iso(now - 2 * HOUR), "run-0");
  db.prepare("UPDATE runs SET at = ? WHERE run = ?").run(iso(now - HOUR), "run-1");
  db.prepare("UPDATE runs SET at = ? WHERE run = ?").run(iso(now - 10 * MIN), "run-2");
  db.exec("UPDATE meta SET value = '2025-11-28T09:00:00.000Z' WHERE key = 'created_at'");
  db.close();
}

/** Creates a fixture home under `base` (a fresh temporary directory by default), times relative to `now`. */
export async function makeFixture(base?: string, now = NOW): Promise<FixtureHome> {
  const dir = base ?? await tempDir({ prefix: "poly-dash-" });
  const stateHome = join(dir, "state");
  const cacheHome = join(dir, "cache");
  const statePath = join(stateHome, "poly.db");
  fillStore(statePath, now);
  await fillCache(cacheHome, CURRENT_ANCHOR, { lint: 12, fmt: 5, rules: 0 }, 3, now);
  await fillCache(cacheHome, OTHER_ANCHOR, { lint: 3, fmt: 0, rules: 2 }, 1, now);
  // A damaged cache: the dashboard lists it with the reason instead of failing.
  const broken = join(cacheHome, "00000000deadbeef");
  await Deno.mkdir(broken, { recursive: true });
  await Deno.writeTextFile(
    join(broken, "cache.db"),
    "this is not a database, just text long enough to be read as a header\n".repeat(20),
  );
  return { base: dir, stateHome, statePath, cacheHome, currentCacheDir: cacheDirFor(CURRENT_ANCHOR, cacheHome) };
}

if (import.meta.main) {
  const target = Deno.args[0];
  const home = await makeFixture(target);
  console.log(`POLY_STATE_HOME=${home.stateHome} POLY_CACHE_HOME=${home.cacheHome}`);
}
