/**
 * A fake OpenRouter-compatible chat-completions server on 127.0.0.1 for decide's
 * tests: it records every request and answers with what the test scripts.
 *
 * @module
 */

/** What the fake answers next. */
export type Reply =
  | { content: string }
  | { status: number; body: unknown }
  | { delayMs: number; content: string };

/** A running fake server. */
export interface FakeOpenRouter {
  url: string;
  requests: { auth: string | null; body: Record<string, unknown> }[];
  replies: Reply[];
  close(): Promise<void>;
}

/** Starts the fake; `replies` are consumed in order (the last one repeats). */
export function fakeOpenRouter(replies: Reply[]): FakeOpenRouter {
  const state: FakeOpenRouter = {
    url: "",
    requests: [],
    replies,
    close: async () => {},
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/api/v1/chat/completions") {
      return new Response("not found", { status: 404 });
    }
    state.requests.push({ auth: req.headers.get("authorization"), body: await req.json() });
    const reply = state.replies.length > 1 ? state.replies.shift()! : state.replies[0];
    if ("status" in reply) return Response.json(reply.body, { status: reply.status });
    if ("delayMs" in reply) await new Promise((r) => setTimeout(r, reply.delayMs));
    return Response.json({
      id: "gen-1",
      model: (state.requests.at(-1)!.body.model as string) ?? "m",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply.content } }],
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    });
  });
  state.url = `http://127.0.0.1:${server.addr.port}/api/v1`;
  state.close = () => server.shutdown();
  return state;
}
