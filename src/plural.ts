// The one way synconf counts a thing in a sentence: "1 check", "2 checks", "3 harness errors".

/** `n` and the word for one or for many (`one` + "s" unless given) */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
