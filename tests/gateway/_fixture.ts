/**
 * The fixture upstream (fixtures/upstream/server.mjs) for gateway tests: a state file
 * the test rewrites to change the catalog and behaviour, a stdio command line, and an
 * HTTP server on loopback.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "../_helpers/cli.ts";
import { openStore } from "../../lib/store/mod.ts";
import type { DatabaseSync } from "../../lib/store/mod.ts";
import { tempDir } from "../_helpers/temp.ts";

/** Path of the fixture server script. */
export const FIXTURE_SERVER = join(REPO, "fixtures", "upstream", "server.mjs");

/** A tool definition as the fixture sends it. */
export type RawTool = Record<string, unknown> & { name: string };

/** The fixture's state file. */
export interface FixtureState {
  tools: RawTool[];
  handlers?: Record<string, Record<string, unknown>>;
  data?: Record<string, unknown>;
  token?: string;
  page_size?: number;
  list_error?: string;
  oauth?: Record<string, unknown>;
}

/** The default catalog: two read tools and two write tools. */
export function defaultState(): FixtureState {
  return {
    tools: [
      {
        name: "get_title",
        title: "Read the title",
        description: "Returns the current title.",
        inputSchema: { type: "object", properties: {} },
        outputSchema: { type: "object", properties: { value: {} } },
        annotations: { readOnlyHint: true },
      },
      {
        name: "set_title",
        title: "Change the title",
        description: "Sets the title.",
        inputSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      {
        name: "get_count",
        description: "Returns the counter.",
        inputSchema: { type: "object", properties: {} },
      },
      {
        name: "set_count",
        description: "Sets the counter.",
        inputSchema: { type: "object", properties: { value: { type: "number" } } },
      },
    ],
    handlers: {
      get_title: { get: "title" },
      set_title: { set: "title" },
      get_count: { get: "count" },
      set_count: { set: "count" },
    },
    data: { title: "first", count: 0 },
  };
}

/** A fixture directory with its state file. */
export class Fixture {
  constructor(readonly dir: string) {}

  /** Path of the state file. */
  get statePath(): string {
    return join(this.dir, "state.json");
  }

  /** The stdio command line (run with `dir` as working directory). */
  get command(): string[] {
    return ["node", FIXTURE_SERVER, "--state", "state.json"];
  }

  /** The stdio command as one string for `--command`. */
  get commandLine(): string {
    return `node ${FIXTURE_SERVER} --state state.json`;
  }

  state(): FixtureState {
    return JSON.parse(Deno.readTextFileSync(this.statePath));
  }

  write(state: FixtureState): void {
    Deno.writeTextFileSync(this.statePath, JSON.stringify(state, null, 2));
  }

  update(change: (state: FixtureState) => void): void {
    const state = this.state();
    change(state);
    this.write(state);
  }

  /** Every tools/call the fixture received. */
  calls(): { tool: string; arguments: Record<string, unknown> }[] {
    try {
      return Deno.readTextFileSync(`${this.statePath}.calls.jsonl`).trim().split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      );
    } catch {
      return [];
    }
  }
}

/** Creates a fixture directory holding `state` (default: {@link defaultState}). */
export async function makeFixture(state: FixtureState = defaultState()): Promise<Fixture> {
  const dir = await tempDir({ prefix: "poly-gw-fixture-" });
  const fixture = new Fixture(dir);
  fixture.write(state);
  return fixture;
}

/** A running HTTP fixture. */
export interface HttpFixture {
  url: string;
  close(): Promise<void>;
}

/** Starts the fixture over HTTP on a free loopback port. */
export async function startHttp(fixture: Fixture): Promise<HttpFixture> {
  const child = new Deno.Command("node", {
    args: [FIXTURE_SERVER, "--state", fixture.statePath, "--http", "0"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("fixture HTTP server exited before listening");
    text += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const writer = child.stdin.getWriter();
  return {
    url: text.trim(),
    close: async () => {
      await writer.close().catch(() => {});
      await child.status;
    },
  };
}

/** Every byte of the state store under `home` (the database and its WAL, when one is left) as text. */
export async function storeBytes(home: string): Promise<string> {
  let text = "";
  for (const file of ["poly.db", "poly.db-wal"]) {
    try {
      text += new TextDecoder("latin1").decode(await Deno.readFile(join(home, file)));
    } catch {
      // No WAL left.
    }
  }
  return text;
}

/**
 * A fresh state home and a database in it. The process environment is left alone (test modules
 * share it): a test whose code under test finds the store through `POLY_STATE_HOME` sets it with
 * `withProcessEnv()` (tests/_helpers/process_env.ts) for its whole body.
 */
export async function freshStore(): Promise<{ db: DatabaseSync; home: string; path: string }> {
  const home = await tempDir({ prefix: "poly-gw-state-" });
  const path = join(home, "poly.db");
  return { db: openStore({ path }), home, path };
}
