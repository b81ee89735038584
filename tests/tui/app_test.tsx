import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Dashboard } from "../../tui/app.tsx";
import { PANES } from "../../tui/panes/mod.ts";
import { COLORFUL, PLAIN, themeFromEnv } from "../../tui/theme.ts";
import { assertGolden } from "../_helpers/cli.ts";
import { CLOCK, type FixtureEnv, fixtureEnv } from "./_env.ts";
import { KEY, renderAt, type Size } from "./_render.tsx";
import { NOW } from "./_fixture.ts";

const GOLDEN = new URL("./golden/", import.meta.url).pathname;
const SIZES: Size[] = [{ columns: 80, rows: 24 }, { columns: 200, rows: 50 }];

async function dashboard(env: FixtureEnv, size: Size, intervalMs = 0) {
  const initial = await env.load();
  return await renderAt(
    <Dashboard source={{ load: env.load }} clock={CLOCK} theme={COLORFUL} intervalMs={intervalMs} initial={initial} />,
    size,
  );
}

function assertFits(frame: string, size: Size): void {
  const lines = frame.split("\n");
  assert.ok(lines.length <= size.rows, `${lines.length} lines in a ${size.rows}-row terminal`);
  for (const l of lines) assert.ok([...l].length <= size.columns, `line wider than ${size.columns}: ${l}`);
}

Deno.test("every pane at 80×24 and 200×50 matches its golden frame", async () => {
  const env = await fixtureEnv();
  try {
    for (const size of SIZES) {
      const r = await dashboard(env, size);
      for (const [i, pane] of PANES.entries()) {
        await r.press(String(i + 1));
        const frame = r.frame();
        assertFits(frame, size);
        assert.match(frame.split("\n")[0], new RegExp(`\\[${i + 1} ${pane.title}\\]`), "the tab row marks the pane");
        await assertGolden(join(GOLDEN, `${pane.id}_${size.columns}x${size.rows}.txt`), frame + "\n");
        if (size.columns === 200 && pane.id === "overview") {
          assert.doesNotMatch(frame, /…/, "at 200 columns no engine's languages and no tool's users are cut");
        }
        if (pane.id === "sessions" && size.columns === 200) {
          assert.match(frame, /Add a --verbose flag to the CLI and document it in the README/, "the caller's prompt");
          assert.doesNotMatch(frame, /Time budget|workspace is mounted/, "not poly's own text");
        }
      }
      r.unmount();
    }
  } finally {
    await env.close();
  }
});

Deno.test("detail views and the keys screen match their golden frames", async () => {
  const env = await fixtureEnv();
  try {
    const r = await dashboard(env, SIZES[0]);
    const views: [string, string[]][] = [
      ["sessions_detail", ["3", "j", KEY.enter]],
      ["cache_detail", [KEY.escape, "2", KEY.enter]],
      ["calls_detail", [KEY.escape, "5", "j", KEY.enter]],
      ["gateway_detail", [KEY.escape, "6", KEY.enter]],
      ["help", [KEY.escape, "3", "?"]],
      ["sessions_detail_long", [KEY.escape, "k", KEY.enter, "j", "j"]],
    ];
    for (const [name, keys] of views) {
      await r.press(...keys);
      await assertGolden(join(GOLDEN, `${name}_80x24.txt`), r.frame() + "\n");
    }
    r.unmount();
  } finally {
    await env.close();
  }
});

Deno.test("keys move the selection, filter the sessions and open the selected one", async () => {
  const env = await fixtureEnv();
  try {
    const r = await dashboard(env, SIZES[0]);
    await r.press("3", KEY.down, KEY.down);
    assert.match(r.frame(), /^›codex +gpt-5\.1-codex… +1 fast_delegate/m, "the third session is selected");
    await r.press("k");
    assert.match(r.frame(), /^›claude +sonnet/m);
    await r.press("/", ..."engine:claude");
    let frame = r.frame();
    assert.match(frame, /^\/engine:claude▏/m, "the filter being typed is shown");
    assert.match(frame, /2 of 8 sessions match "engine:claude"/);
    await r.press(KEY.enter);
    frame = r.frame();
    await assertGolden(join(GOLDEN, "sessions_filtered_80x24.txt"), frame + "\n");
    assert.equal(frame.split("\n").filter((l) => / delegate | explore /.test(l)).length, 2);
    await r.press("j", KEY.enter);
    assert.match(r.frame(), /Session claude:5f2c-d4/, "enter opens the selected, filtered row");
    await r.press(KEY.escape, KEY.escape);
    assert.match(r.frame(), /8 sessions, newest first/, "esc closes the detail, then clears the filter");
    await r.press("/", ..."status:nothing", KEY.enter);
    assert.match(r.frame(), /No session matches "status:nothing"/);
    await r.press(KEY.right, KEY.right);
    assert.match(r.frame(), /\[5 Calls\]/, "arrows switch tabs");
    await r.press(KEY.tab);
    assert.match(r.frame(), /\[6 Gateway\]/);
    await r.press("l");
    assert.match(r.frame(), /\[7 Access\]/);
    await r.press("l");
    assert.match(r.frame(), /\[1 Overview\]/, "tabs wrap around");
    await r.press("2", "/");
    assert.match(r.frame(), /This pane has no filter\./);
    r.unmount();
  } finally {
    await env.close();
  }
});

Deno.test("the status row fits: whole hints and the update time, at 80 columns and at 40", async () => {
  const env = await fixtureEnv();
  try {
    for (const size of [{ columns: 80, rows: 24 }, { columns: 40, rows: 12 }]) {
      const r = await dashboard(env, size);
      const views: string[][] = PANES.map((_p, i) => [String(i + 1)]);
      views.push(["3", "j", KEY.enter], [KEY.escape, "?"], [KEY.escape, "3", "/", "engine:codex"]);
      for (const keys of views) {
        await r.press(...keys);
        const status = r.frame().split("\n").at(-1)!;
        assert.ok([...status].length <= size.columns, `wider than ${size.columns}: ${status}`);
        assert.doesNotMatch(status, /…/, `a hint is cut at ${size.columns} columns: ${status}`);
        assert.match(status, /(^|· |\s)(q quit|esc|\/)/, "the way out stays");
        assert.match(status, /12:00:00$/, "when the data was read stays");
      }
      await r.press(KEY.escape, KEY.escape);
      r.unmount();
    }
  } finally {
    await env.close();
  }
});

Deno.test("the dashboard lays itself out again when the terminal is resized", async () => {
  const env = await fixtureEnv();
  try {
    const r = await dashboard(env, SIZES[0]);
    await r.press("3");
    assert.doesNotMatch(r.frame(), /PROMPT/);
    await r.resize({ columns: 120, rows: 36 });
    let frame = r.frame();
    assertFits(frame, { columns: 120, rows: 36 });
    assert.match(frame, /PROMPT/, "wide terminals show the prompt column");
    assert.equal(frame.split("\n").length, 36);
    await r.resize({ columns: 60, rows: 12 });
    frame = r.frame();
    assertFits(frame, { columns: 60, rows: 12 });
    await assertGolden(join(GOLDEN, "sessions_60x12.txt"), frame + "\n");
    await r.resize({ columns: 30, rows: 6 });
    assert.match(r.frame().replace(/\s+/g, " "), /needs at least 40×8 \(now 30×6\)/);
    r.unmount();
  } finally {
    await env.close();
  }
});

Deno.test("the dashboard refreshes by itself while another connection writes to the store", async () => {
  const env = await fixtureEnv();
  const writer = new DatabaseSync(env.home.statePath);
  try {
    writer.exec("PRAGMA busy_timeout = 5000");
    const r = await renderAt(
      <Dashboard source={env.loader} clock={CLOCK} theme={COLORFUL} intervalMs={40} />,
      SIZES[1],
    );
    await r.press("3");
    await r.waitFor((f) => f.includes("8 sessions"));
    await r.press("j");
    assert.match(r.frame(), /^›claude +sonnet/m);
    writer.prepare(
      `INSERT INTO fleet_sessions (handle, engine, session_id, tool, model, level, cwd, preview, created_at, updated_at)
       VALUES ('grok:live-1', 'grok', 'live-1', 'delegate', 'grok-4', 2, '/work/app', 'Written while the dashboard runs', ?, ?)`,
    ).run(new Date(NOW).toISOString(), new Date(NOW).toISOString());
    const frame = await r.waitFor((f) => f.includes("9 sessions"));
    assert.match(frame, /Written while the dashboard/);
    assert.match(frame, /^›claude +sonnet/m, "the selection stays on its session when a new one arrives above it");
    await r.press(KEY.enter);
    assert.match(r.frame(), /Session claude:5f2c-b2/);
    r.unmount();
  } finally {
    writer.close();
    await env.close();
  }
});

Deno.test("c cleans the selected cache namespace only after y", async () => {
  const env = await fixtureEnv();
  try {
    const r = await renderAt(
      <Dashboard source={env.loader} clock={CLOCK} theme={COLORFUL} intervalMs={0} initial={await env.loader.load()} />,
      SIZES[0],
    );
    await r.press("2", "c");
    assert.match(r.frame(), /Clean "lint" of \/work\/app \(12 entries, 1\.2 KiB\)\? y\/N/);
    await r.press("n");
    assert.match(r.frame(), /Cancelled: nothing was changed\./);
    assert.match(r.frame(), /lint +12 /);
    await r.press("c", "y");
    const frame = await r.waitFor((f) => /Removed 12 entries/.test(f) && /lint +0 /.test(f));
    assert.match(frame, /fmt +5 /, "the other namespaces stay");
    await r.press("c");
    assert.match(r.frame(), /already empty/);
    r.unmount();
  } finally {
    await env.close();
  }
});

Deno.test("NO_COLOR and FORCE_COLOR=0 turn colour off and keep emphasis", () => {
  assert.deepEqual(themeFromEnv((n) => (n === "NO_COLOR" ? "1" : undefined)), { color: false, styles: true });
  assert.deepEqual(themeFromEnv((n) => (n === "FORCE_COLOR" ? "0" : undefined)), { color: false, styles: true });
  assert.deepEqual(themeFromEnv((n) => (n === "NO_COLOR" ? "" : undefined)), COLORFUL, "an empty NO_COLOR is unset");
  assert.deepEqual(PLAIN, { color: false, styles: false });
});
