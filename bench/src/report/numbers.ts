/** How the report writes numbers: whole with thousands separators, or with one or two decimals. */
export const n0 = (value: number): string => Math.round(value).toLocaleString('en-US');
export const n1 = (value: number): string => value.toFixed(1);
export const n2 = (value: number): string => value.toFixed(2);
