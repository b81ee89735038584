// biome-ignore lint/suspicious/noExplicitAny: kept for the example
export function f(x: any): string {
	return "n=" + x;
}
