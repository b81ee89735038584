/**
 * Batch processes started while discovery still walks (a cold lint check): the
 * files of an engine that lints groups in shared native processes
 * ({@link EngineInstance.startLintGroups}: biome) go to a process of their own
 * each time {@link CHUNK} of them are found, rather than all at once after the
 * walk and the plan. On two cores the walk leaves one idle; biome's processes
 * take it. The pre-pass ({@link startEarly}) starts what is left and adopts
 * these: each group's results come from whichever process linted the file
 * ({@link joinStarted}).
 *
 * @module
 */
import type { ConfigSet, ResolvedConfig } from "../config/types.ts";
import type { FoundFile } from "../discover/types.ts";
import { engineById, loadEngine } from "../engines/registry.ts";
import type { EngineSpec, LintOutput, Settled, SourceFile, StartedBatch } from "../engines/types.ts";
import { type EnginePlan, narrowToFile, planLint } from "./plan.ts";

/** Files found of one engine before a process of its own starts on them (vite: ~2,200 files, two such processes). */
export const CHUNK = 800;

/** One started process's share of a group: its batch and the paths it lints. */
export interface StartedPart {
  batch: StartedBatch<LintOutput>;
  paths: ReadonlySet<string>;
}

/** A group's processes started during discovery: its engine, its plan and each process's share. */
export interface StreamedGroup {
  spec: EngineSpec;
  plan: EnginePlan;
  parts: StartedPart[];
}

type Ref = Omit<SourceFile, "text">;

/** The batch key of a plan: {@link groupKey} of the pre-pass (same engine, kind and settings). */
export type GroupKey = (plan: EnginePlan) => string;

/** What a discovery of a cold lint check streams into (see the module documentation). */
export class StreamedStarts {
  readonly #pending = new Map<EngineSpec, Map<string, { plan: EnginePlan; files: Ref[] }>>();
  readonly #counts = new Map<EngineSpec, number>();
  readonly #groups = new Map<string, StreamedGroup>();
  readonly #launches = new Set<EngineSpec>();
  #inFlight: Promise<unknown>[] = [];

  /**
   * `config`: the run directory's configuration when the run is cold (every file will miss), else undefined: then
   * nothing starts early.
   */
  constructor(
    readonly configs: ConfigSet,
    readonly cold: Promise<ResolvedConfig | undefined>,
    readonly groupKey: GroupKey,
  ) {}

  /** A file the walk found (discovery's `onFile`). */
  offer = (file: FoundFile): void => {
    this.#inFlight.push(this.#offer(file).catch(() => {})); // a file not streamed is started with the rest
  };

  async #offer(file: FoundFile): Promise<void> {
    if (!(await this.cold)) return;
    const config = await this.configs.forDir(parentDir(file.path));
    // Kept by path: the run's plan of the file asks again.
    const plan = narrowToFile(planLint(file.language, config), file.path, "lint", true);
    for (const engine of plan.engines) {
      const spec = engineById(engine.id);
      if (!spec?.batch?.lint) continue;
      const instance = await loadEngine(spec);
      if (!instance.startLintGroups || !instance.lintMany) continue;
      const key = this.groupKey(engine);
      const groups = this.#pending.get(spec) ?? this.#pending.set(spec, new Map()).get(spec)!;
      const group = groups.get(key) ?? groups.set(key, { plan: engine, files: [] }).get(key)!;
      group.files.push({ path: file.path, relPath: file.relPath, language: file.language });
      const count = (this.#counts.get(spec) ?? 0) + 1;
      this.#counts.set(spec, count);
      if (count >= CHUNK) await this.#launch(spec);
    }
  }

  /** One process (per configuration biome cannot share) for an engine's pending files. */
  async #launch(spec: EngineSpec): Promise<void> {
    const groups = [...this.#pending.get(spec) ?? []];
    this.#pending.delete(spec);
    this.#counts.delete(spec);
    if (groups.length === 0) return;
    const engine = await loadEngine(spec);
    const started = engine.startLintGroups!(groups.map(([, g]) => ({ files: g.files, settings: g.plan.settings })), 1);
    this.#launches.add(spec);
    groups.forEach(([key, { plan, files }], i) => {
      const group = this.#groups.get(key) ?? this.#groups.set(key, { spec, plan, parts: [] }).get(key)!;
      group.parts.push({ batch: started[i], paths: new Set(files.map((f) => f.path)) });
    });
  }

  /**
   * Once the walk is over: every offer handled, and what started, by group. Files still pending are left to the
   * pre-pass. Later calls give the same groups (a run in windows adopts them in each).
   */
  async groups(): Promise<ReadonlyMap<string, StreamedGroup>> {
    while (this.#inFlight.length > 0) {
      const waiting = this.#inFlight;
      this.#inFlight = [];
      await Promise.all(waiting);
    }
    this.#pending.clear();
    this.#counts.clear();
    return this.#groups;
  }

  /** Whether a process started early for `spec`: the pre-pass then starts the rest in one. */
  launched(spec: EngineSpec): boolean {
    return this.#launches.has(spec);
  }
}

/**
 * One group's started batches as one: each file's result from the part that
 * linted it, in the order asked; a file no part has goes to the engine's
 * `lintMany` (a later window's file, say). A part is finished with its own files
 * only (biome's parts may be finished again, once per window).
 */
export function joinStarted({ parts, spec, plan }: StreamedGroup): StartedBatch<LintOutput> {
  return {
    ready: Promise.all(parts.map((p) => p.batch.ready)).then(() => {}),
    offer: (file) => parts.find((p) => p.paths.has(file.path))?.batch.offer?.(file),
    finish: async (files) => {
      const shares = parts.map(() => [] as number[]);
      const rest: number[] = [];
      files.forEach((file, i) => {
        const at = parts.findIndex((p) => p.paths.has(file.path));
        (at < 0 ? rest : shares[at]).push(i);
      });
      const out = new Array<Settled<LintOutput>>(files.length);
      const place = (indexes: number[], results: Settled<LintOutput>[]) =>
        indexes.forEach((index, k) => out[index] = results[k]);
      await Promise.all([
        ...parts.map(async (part, p) => place(shares[p], await part.batch.finish(shares[p].map((i) => files[i])))),
        (async () => {
          if (rest.length === 0) return;
          const engine = await loadEngine(spec);
          place(rest, await engine.lintMany!(rest.map((i) => files[i]), plan.settings));
        })(),
      ]);
      return out;
    },
  };
}

/** The folder of an absolute path (`dirname` without its checks: a run asks it per file). */
export function parentDir(path: string): string {
  const i = path.lastIndexOf("/");
  return i > 0 ? path.slice(0, i) : "/";
}
