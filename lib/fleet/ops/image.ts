/**
 * `generate_image`: codex's (or grok's) built-in image tool creates or edits an
 * image and saves it inside the working directory. The output is checked before
 * any engine runs as every tool write is (lib/fs/write_target.ts): inside the
 * working directory as written and inside the root after resolving links, never
 * in `.git/` or `.poly/` or one of poly's config files, an existing file only
 * with `overwrite`, and an image file name. The file is checked after the run.
 *
 * @module
 */
import { type FleetContext, requirePrompt, workspaceDir } from "../context.ts";
import { FleetError } from "../errors.ts";
import { imagePrompt } from "../prompts.ts";
import { runEngine } from "../run.ts";
import type { EngineName } from "../types.ts";
import { recorded } from "./_call.ts";
import { realInsideCwd, relToCwd } from "./_paths.ts";
import { extname } from "node:path";
import { resolveWriteTarget, WriteTargetError } from "../../fs/write_target.ts";

/** A generate_image call. */
export interface ImageInput {
  prompt: string;
  /** Where to save, relative to cwd (default `images/image-<timestamp>.png`). */
  output?: string;
  /** Images to edit, inside cwd. */
  inputs?: string[];
  engine?: Extract<EngineName, "codex" | "grok">;
  model?: string;
  overwrite?: boolean;
  cwd?: string;
}

/** What generate_image returns. */
export interface ImageOutput {
  /** The saved image, relative to cwd. */
  path: string;
  bytes: number;
  engine: string;
  model?: string;
  session_id?: string;
  /** The engine's reply. */
  answer: string;
  latency_ms: number;
}

/** Runs `generate_image`. */
export function generateImage(ctx: FleetContext, input: ImageInput): Promise<ImageOutput> {
  return recorded(ctx, "generate_image", async () => {
    requirePrompt(input.prompt);
    const cwd = workspaceDir(ctx, input.cwd);
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
    const output = await imageTarget(ctx, cwd, input.output ?? `images/image-${stamp}.png`, input.overwrite);
    const inputs: string[] = [];
    for (const i of input.inputs ?? []) {
      const abs = await realInsideCwd(cwd, i);
      try {
        if (!(await Deno.stat(abs)).isFile) throw new Error("not a file");
      } catch {
        throw new FleetError("not_found", `Input image ${relToCwd(cwd, abs)} does not exist`);
      }
      inputs.push(abs);
    }
    const engine = input.engine ?? "codex";
    if (engine !== "codex" && engine !== "grok") {
      throw new FleetError("invalid_request", `generate_image runs on codex or grok only, not "${engine}"`);
    }
    const r = await runEngine(ctx, {
      tool: "generate_image",
      surface: "generate_image",
      engine,
      model: input.model ?? (engine === "codex" ? ctx.settings.imageModel : undefined),
      prompt: imagePrompt({ prompt: input.prompt, output, inputs }),
      preview: input.prompt,
      cwd,
      readOnly: false,
      image: true,
      images: engine === "codex" ? inputs : undefined,
      among: ["codex", "grok"],
    });
    let bytes = 0;
    try {
      const info = await Deno.lstat(output);
      if (!info.isFile) throw new Error("not a regular file");
      bytes = info.size;
    } catch {
      throw new FleetError(
        "engine_failed",
        `${engine} finished but no image was saved at ${relToCwd(cwd, output)}` +
          (r.text ? `: ${r.text.slice(0, 300)}` : ""),
        { engine },
      );
    }
    const out: ImageOutput = {
      path: relToCwd(cwd, output),
      bytes,
      engine: r.engine,
      ...(r.model ? { model: r.model } : {}),
      ...(r.handle ? { session_id: r.handle } : {}),
      answer: r.text,
      latency_ms: r.latencyMs,
    };
    return { output: out, rawChars: r.rawChars, engine: r.engine, handle: r.handle };
  });
}

/** The image file extensions generate_image saves to. */
export const IMAGE_EXTENSIONS: readonly string[] = [".png", ".jpg", ".jpeg", ".webp", ".gif"];

/** Checks where an image may be saved (see the module's comment); returns the absolute path. */
async function imageTarget(ctx: FleetContext, cwd: string, path: string, overwrite?: boolean): Promise<string> {
  if (!IMAGE_EXTENSIONS.includes(extname(path).toLowerCase())) {
    throw new FleetError(
      "invalid_request",
      `"${path}" is not an image file name: end it in ${IMAGE_EXTENSIONS.join(", ")}`,
    );
  }
  try {
    return (await resolveWriteTarget({ root: ctx.root, base: cwd, path, overwrite })).path;
  } catch (e) {
    if (e instanceof WriteTargetError) throw new FleetError("invalid_request", e.message);
    throw e;
  }
}
