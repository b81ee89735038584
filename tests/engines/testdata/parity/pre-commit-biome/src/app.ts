export function total(prices: number[], discount: number): number {
	const sum = prices.reduce((acc, price) => acc + price, 0);
	return Math.max(0, sum - discount * prices.length + prices.length / 2);
}
