/**
 * The engine side of the rules bench, run as its own process: lints every .ts
 * and .py file under DIR/src and DIR/pkg with the ast-grep engine's library,
 * split over WORKERS Deno workers (default: the CPU count, as `poly lint`'s
 * pool does), then prints `{"findings": N, "engine_ms": T}`.
 *
 * Usage: deno run -P=test tests/bench/_rules_scan.ts DIR [WORKERS]
 *
 * @module
 */
import { join } from "node:path";

interface Job {
  dir: string;
  files: [string, "typescript" | "python"][];
}

async function lintAll(job: Job): Promise<number> {
  const { lintWithRules } = await import("../../lib/engines/ast_grep/diagnose.ts");
  const { loadRuleSet } = await import("../../lib/rules/load.ts");
  const set = await loadRuleSet(job.dir, { dirs: [] });
  let findings = 0;
  for (const [path, language] of job.files) {
    const text = Deno.readTextFileSync(path);
    findings += (await lintWithRules(set, { path, language, text })).length;
  }
  return findings;
}

// deno-lint-ignore no-explicit-any
const self_ = globalThis as any;
if (typeof self_.WorkerGlobalScope !== "undefined" && self_ instanceof self_.WorkerGlobalScope) {
  self_.onmessage = async (event: MessageEvent<Job>) => {
    self_.postMessage(await lintAll(event.data));
    self_.close();
  };
} else if (import.meta.main) {
  const dir = Deno.args[0];
  const workers = Number(Deno.args[1] ?? navigator.hardwareConcurrency ?? 1);
  const start = performance.now();
  const files: Job["files"] = [];
  for (const [sub, ext, language] of [["src", ".ts", "typescript"], ["pkg", ".py", "python"]] as const) {
    for (const entry of Deno.readDirSync(join(dir, sub))) {
      if (entry.name.endsWith(ext)) files.push([join(dir, sub, entry.name), language]);
    }
  }
  files.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  let findings = 0;
  if (workers <= 1) {
    findings = await lintAll({ dir, files });
  } else {
    const shares = Array.from({ length: workers }, (_, w) => files.filter((_, i) => i % workers === w));
    const counts = await Promise.all(shares.map((share) =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(import.meta.url, { type: "module" });
        worker.onmessage = (e: MessageEvent<number>) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage({ dir, files: share });
      })
    ));
    findings = counts.reduce((a, b) => a + b, 0);
  }
  console.log(JSON.stringify({ findings, engine_ms: Math.round(performance.now() - start) }));
}
