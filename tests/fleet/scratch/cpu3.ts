import { cpuUsage } from "node:process";
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
const m = async (fn: () => unknown) => { const xs: number[] = []; for (let i = 0; i < 15; i++) { const c = cpuUsage(); await fn(); const d = cpuUsage(c); xs.push((d.user + d.system) / 1000); } return med(xs); };
const cmd = () => new Deno.Command("/usr/bin/echo", { args: ["hello"], stdin: "null", stdout: "piped", stderr: "piped", detached: true });
console.log("output", await m(() => cmd().output()));
console.log("spawn+output", await m(() => cmd().spawn().output()));
console.log("for-await", await m(async () => { const c = cmd().spawn(); const r = async (s: ReadableStream<Uint8Array>) => { for await (const _ of s) {} }; await Promise.all([r(c.stdout), r(c.stderr), c.status]); }));
console.log("reader", await m(async () => { const c = cmd().spawn(); const r = async (s: ReadableStream<Uint8Array>) => { const rd = s.getReader(); while (!(await rd.read()).done) {} }; await Promise.all([r(c.stdout), r(c.stderr), c.status]); }));
console.log("kill ESRCH x2", await m(() => { try { Deno.kill(-999999, "SIGKILL"); } catch { try { Deno.kill(999999, "SIGKILL"); } catch {} } }));
