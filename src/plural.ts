// The one way synconf counts a thing in a sentence: "1 check", "2 checks", "3 harness errors".

/** the word for one or for many (`one` + "s" unless given), without the count: "1 check fails", "2 checks fail" */
export const wordFor = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);

/** `n` and the word for one or for many (`one` + "s" unless given) */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${wordFor(n, one, many)}`;
