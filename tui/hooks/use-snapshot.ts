/**
 * Live data: takes a snapshot now and every `intervalMs`, one at a time (a slow
 * read is never overlapped by the next), and on demand (`refresh`). A failed
 * load keeps the previous snapshot and reports the error.
 *
 * @module
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Snapshot } from "../data/types.ts";
import type { LoadOptions } from "../data/snapshot.ts";

/** Something that takes snapshots. */
export interface SnapshotSource {
  load(options?: LoadOptions): Promise<Snapshot>;
}

/** Options of a refresh. */
export interface RefreshOptions extends LoadOptions {
  /** Start a new load even when one is running (data changed since it began). */
  fresh?: boolean;
}

/** What {@link useSnapshot} returns. */
export interface LiveSnapshot {
  snapshot?: Snapshot;
  /** Why the latest load failed as a whole. */
  error?: string;
  /** Loads now (`fresh`: after any load already running, never sharing it); resolves when done. */
  refresh(options?: RefreshOptions): Promise<void>;
}

/** Polls `source` every `intervalMs` (no polling when 0). */
export function useSnapshot(source: SnapshotSource, intervalMs: number, initial?: Snapshot): LiveSnapshot {
  const [state, setState] = useState<{ snapshot?: Snapshot; error?: string }>({ snapshot: initial });
  const inflight = useRef<Promise<void> | undefined>(undefined);
  const alive = useRef(true);

  const refresh = useCallback((options?: RefreshOptions): Promise<void> => {
    if (inflight.current && !options?.force && !options?.fresh) return inflight.current;
    const run = (async () => {
      await inflight.current?.catch(() => {});
      try {
        const snapshot = await source.load({ force: options?.force, waitForHostTools: options?.waitForHostTools });
        if (alive.current) setState({ snapshot });
      } catch (e) {
        if (alive.current) setState((prev) => ({ ...prev, error: e instanceof Error ? e.message : String(e) }));
      }
    })();
    const tracked: Promise<void> = run.finally(() => {
      if (inflight.current === tracked) inflight.current = undefined;
    });
    inflight.current = tracked;
    return tracked;
  }, [source]);

  useEffect(() => {
    alive.current = true;
    if (!initial) refresh();
    const timer = intervalMs > 0 ? setInterval(() => void refresh(), intervalMs) : undefined;
    return () => {
      alive.current = false;
      if (timer !== undefined) clearInterval(timer);
    };
  }, [source, intervalMs]);

  return { ...state, refresh };
}
