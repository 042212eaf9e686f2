// The esbuild plugin of scripts/bundle.mjs (also used by bench/profile-startup.mjs, so that profiles
// show the bundle as built).
// yargs' help layout measures text with string-width, whose module body costs ~20 ms of every start (an
// Intl.Segmenter and a /^\p{RGI_Emoji}$/v regexp, in three copies). Only --help measures text: the bundle
// gets one copy, evaluated on its first call (scripts/lazy-string-width.mjs).
const LAZY_STRING_WIDTH = new URL('./lazy-string-width.mjs', import.meta.url).pathname;
export const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer === LAZY_STRING_WIDTH ? undefined : { path: LAZY_STRING_WIDTH },
    );
  },
};
