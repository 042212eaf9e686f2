// The one ajv configuration synconf uses (draft 2020-12, ajv-formats). Used at build time by
// `npm run gen` to precompile validators; at run time only the generated code is loaded.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export { loadSchemas, type LoadedSchema } from './schema-files.js';

// CommonJS default exports as seen from ESM under NodeNext.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

export function buildAjv(schemas: object[], forStandalone = false) {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    code: forStandalone ? { source: true, esm: true } : undefined,
  });
  addFormats(ajv);
  for (const keyword of ['x-since', 'x-deprecated']) ajv.addKeyword({ keyword, schemaType: ['string', 'boolean'] });
  ajv.addKeyword({ keyword: 'tsType', schemaType: 'string' }); // read by json-schema-to-typescript only
  // the statements of spec/statements.yaml a schema node proves (src/schema/schema-statements.ts)
  ajv.addKeyword({ keyword: 'x-statement', schemaType: ['string', 'array'] });
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}
