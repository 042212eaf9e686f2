// "Did you mean": the closest known name to an unknown one, for every name a user types (a command, an option, a
// scenario key, a schema, an endpoint, a validate kind, an expectation key, an agent version). Hand-written rather
// than a dependency: a dozen lines, and it counts an adjacent swap as one edit (a common typo) and takes a prefix
// of three letters or more as a match, which plain Levenshtein packages do not.

/** edit distance (insertions, deletions, substitutions, adjacent swaps) */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** the closest of `known` to `word`, if it is close enough to be a typo */
export function closest(word: string, known: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined; // a pasted blob is no typo (and the distance is quadratic)
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const dist = k.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, k);
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** " (did you mean X?)" with `quote` around the guess, or "" when nothing is close */
export function didYouMean(word: string, known: Iterable<string>, quote: (name: string) => string = (n) => `"${n}"`) {
  const guess = closest(word, known);
  return guess === undefined ? '' : ` (did you mean ${quote(guess)}?)`;
}
