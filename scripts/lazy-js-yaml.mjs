// js-yaml for the engine bundle, evaluated when first used (scripts/bundle.mjs maps the sources' `js-yaml` here):
// esbuild runs a module reached by require() only when the call runs. A replay of the shipped files parses no
// YAML (their values are in dist/bin/parsed-yaml.json), yet js-yaml's module body, evaluated at every start,
// builds its loader, dumper and schemas (~1 ms of each command, bench/README.md). These are the parts of js-yaml
// the sources use, with the same behaviour.
const jsYaml = () => require('js-yaml');

/** stands for js-yaml's CORE_SCHEMA until `load` is called with it */
export const CORE_SCHEMA = { lazy: 'CORE_SCHEMA' };

export function load(text, options = {}) {
  const schema = options.schema === CORE_SCHEMA ? jsYaml().CORE_SCHEMA : options.schema;
  return jsYaml().load(text, { ...options, schema });
}

/** `err instanceof YAMLException` holds for js-yaml's own errors (the only use the sources make of it) */
export class YAMLException extends Error {
  static [Symbol.hasInstance](err) {
    return err instanceof jsYaml().YAMLException;
  }
}
