// The schema files themselves (schemas/*.schema.json), read as JSON. Apart from ajv-setup.ts, which compiles them
// (`npm run gen`), so that a run reading them (drift's causes) does not load ajv's compiler: the built engine
// evaluated it at every start of every command (bench/README.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../paths.js';

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
