/**
 * The real `poly dash` in a real terminal: tmux runs the process in an 80×24
 * pane on a private server socket; keys are sent with send-keys and the screen
 * is read back with capture-pane. Skipped, saying so, when tmux is not installed.
 */
import assert from "node:assert/strict";
import { DENO_JSON, MAIN } from "../_helpers/cli.ts";
import { makeFixture } from "./_fixture.ts";

function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

const TMUX = hasTmux();

/** A colour in an SGR sequence as capture-pane -e prints it (foreground 30–37, 90–97 or 256-colour). */
// deno-lint-ignore no-control-regex
const COLOUR = /\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+)[;m]/;
/** Inverse video in an SGR sequence. */
// deno-lint-ignore no-control-regex
const INVERSE = /\x1b\[[0-9;]*7[;m]/;
/** A private tmux server per run, so no other tmux session is touched. */
let SOCKET = `poly-dash-test-${Deno.pid}`;

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args: ["-L", SOCKET, ...args], stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`tmux ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** The screen as text (`escapes`: with colour and style sequences). */
function screen(escapes = false): Promise<string> {
  return tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", "dash");
}

async function waitForScreen(predicate: (s: string) => boolean, what: string, ms = 45_000): Promise<string> {
  const until = Date.now() + ms;
  let last = "";
  while (Date.now() < until) {
    last = await screen();
    if (predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the screen never showed ${what}; it showed:\n${last}`);
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

async function startDash(env: Record<string, string>, size = { x: 80, y: 24 }): Promise<void> {
  const vars = Object.entries({ TERM: "xterm-256color", ...env }).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
  const argv = [Deno.execPath(), "run", "-q", "-P", "--config", DENO_JSON, MAIN, "dash", "--interval", "500"].map(
    shellQuote,
  ).join(" ");
  const script =
    `echo "before poly dash"; env -u NO_COLOR -u CI ${vars} ${argv}; echo "poly dash exited with $?"; sleep 60`;
  await tmux("new-session", "-d", "-s", "dash", "-x", String(size.x), "-y", String(size.y), "sh", "-c", script);
}

/** After quitting, the normal screen holds what it held before and the exit line: no row of the dashboard. */
function assertNormalScreen(screen: string): void {
  assert.deepEqual(
    screen.split("\n").map((l) => l.trimEnd()).filter(Boolean),
    ["before poly dash", "poly dash exited with 0"],
    `rows of the dashboard were left on the normal screen:\n${screen}`,
  );
}

Deno.test({
  name: TMUX
    ? "poly dash runs in a real terminal: panes, keys, resize, quit"
    : "poly dash in a real terminal (skipped: tmux is not installed)",
  ignore: !TMUX,
  sanitizeResources: false,
  async fn() {
    const home = await makeFixture(undefined, Date.now());
    try {
      await startDash({ POLY_STATE_HOME: home.stateHome, POLY_CACHE_HOME: home.cacheHome });
      let s = await waitForScreen((x) => x.includes("[1 Overview]") && x.includes("updated"), "the Overview pane");
      assert.match(s, /poly \d+\.\d+\.\d+ · build/);
      assert.ok(s.split("\n").every((l) => [...l].length <= 80));

      await tmux("send-keys", "-t", "dash", "3");
      s = await waitForScreen(
        (x) => x.includes("[3 Sessions]") && x.includes("8 sessions, newest first"),
        "the Sessions pane",
      );
      assert.match(s, /^›codex +gpt-5\.1-cod/m, "the newest session is selected");
      const raw = await screen(true);
      assert.match(raw, COLOUR, "colour by default");
      assert.match(raw, INVERSE, "the selection is shown inverse");

      await tmux("send-keys", "-t", "dash", "j", "Enter");
      s = await waitForScreen((x) => x.includes("Session claude:5f2c-b2"), "the detail of the second session");
      assert.match(s, /In lib\/cache\/key\.ts: cacheKey\(\) hashes the build identity/);

      await tmux("send-keys", "-t", "dash", "Escape");
      await waitForScreen((x) => x.includes("8 sessions, newest first"), "the list again");

      await tmux("send-keys", "-t", "dash", "/", "tool:explore", "Enter");
      s = await waitForScreen((x) => x.includes('1 of 8 sessions match "tool:explore"'), "the filtered list");

      await tmux("send-keys", "-t", "dash", "Right");
      await waitForScreen((x) => x.includes("[4 Ratings]") && x.includes("rated sessions"), "the Ratings pane");

      await tmux("resize-window", "-t", "dash", "-x", "120", "-y", "36");
      await tmux("send-keys", "-t", "dash", "6");
      s = await waitForScreen(
        (x) => x.includes("[6 Gateway]") && x.includes("ENDPOINT"),
        "the Gateway pane at 120 columns",
      );
      assert.equal(s.trimEnd().split("\n").length <= 36, true);

      await tmux("send-keys", "-t", "dash", "q");
      s = await waitForScreen((x) => x.includes("poly dash exited with"), "the exit");
      assertNormalScreen(s);
    } finally {
      await tmux("kill-server").catch(() => {});
      await Deno.remove(home.base, { recursive: true });
    }
  },
});

Deno.test({
  name: TMUX
    ? "poly dash with NO_COLOR draws without colour"
    : "poly dash with NO_COLOR (skipped: tmux is not installed)",
  ignore: !TMUX,
  sanitizeResources: false,
  async fn() {
    SOCKET = `poly-dash-test-${Deno.pid}-plain`;
    const home = await makeFixture(undefined, Date.now());
    try {
      await startDash({ POLY_STATE_HOME: home.stateHome, POLY_CACHE_HOME: home.cacheHome, NO_COLOR: "1" });
      await waitForScreen((x) => x.includes("[1 Overview]") && x.includes("updated"), "the Overview pane");
      await tmux("send-keys", "-t", "dash", "3");
      await waitForScreen((x) => x.includes("8 sessions"), "the Sessions pane");
      const raw = await screen(true);
      assert.doesNotMatch(raw, COLOUR, "no colour with NO_COLOR");
      assert.match(raw, INVERSE, "the selection stays visible");
      // Wider, then ctrl-c: the normal screen comes back as it was.
      await tmux("resize-window", "-t", "dash", "-x", "130", "-y", "24");
      await waitForScreen((x) => x.split("\n").some((l) => [...l].length > 100), "the dashboard at 130 columns");
      await tmux("send-keys", "-t", "dash", "C-c");
      assertNormalScreen(await waitForScreen((x) => x.includes("poly dash exited with"), "the exit"));
    } finally {
      await tmux("kill-server").catch(() => {});
      await Deno.remove(home.base, { recursive: true });
    }
  },
});
