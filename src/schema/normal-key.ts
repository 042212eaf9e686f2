// Object keys that are values in disguise: the answers of an agent use device IDs, addresses and paths as keys.
// Drift (comparing the shapes of two recordings) and the matrix (telling what deviates between two versions) both
// need a key without the part that changes from run to run.
/** a Syncthing device ID: eight groups of seven base32 characters */
export const DEVICE_ID = /^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$/;

/** object keys that are values in disguise (device IDs, addresses, paths) become placeholders */
export function normalKey(key: string, tmp?: string): string {
  if (DEVICE_ID.test(key)) return '<deviceId>';
  if (/^[a-z]+:\/\//.test(key) || /^[\d.]+:\d+$/.test(key) || /^\[[\da-f:]+\]:\d+$/.test(key)) return '<address>';
  if (tmp && key.startsWith(tmp)) return `<tmp>${key.slice(tmp.length)}`;
  if (key.startsWith('/')) return '<path>';
  return key;
}
