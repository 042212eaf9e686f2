// string-width for the bundle, evaluated when first called (see bundle.mjs): esbuild runs a module reached
// by require() only when the call runs, so a start that measures no text pays nothing for it.
export default function stringWidth(text, options) {
  return require('string-width').default(text, options);
}
