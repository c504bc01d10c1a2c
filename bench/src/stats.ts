/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median() of an empty list; measure at least one run.');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The lower and upper quartile of a non-empty list (the medians of its lower and upper halves). */
export function quartiles(values: readonly number[]): [number, number] {
  if (values.length === 0) throw new RangeError('quartiles() of an empty list; measure at least one run.');
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  if (half === 0) return [sorted[0]!, sorted[0]!];
  return [median(sorted.slice(0, half)), median(sorted.slice(sorted.length - half))];
}
