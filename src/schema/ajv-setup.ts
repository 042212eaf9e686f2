// The one ajv configuration synconf uses (draft 2020-12, ajv-formats). Used at build time by
// `npm run gen` to precompile validators; at run time only the generated code is loaded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMAS_DIR } from '../paths.js';

// CommonJS default exports as seen from ESM under NodeNext.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

export interface LoadedSchema {
  name: string;
  id: string;
  schema: Record<string, unknown>;
}

/** every schemas/*.schema.json, by resource name (the file name without .schema.json) */
export function loadSchemas(dir = SCHEMAS_DIR): LoadedSchema[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => {
      const schema = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      return { name: f.replace(/\.schema\.json$/, ''), id: schema.$id, schema };
    });
}

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
