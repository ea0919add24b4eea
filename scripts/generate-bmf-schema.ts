import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateBmfJsonSchema } from '../core/bmf-json-schema.js';

// Regenerates core/bmf.schema.json from the zod schema: `npx tsx scripts/generate-bmf-schema.ts`.
const target = fileURLToPath(new URL('../core/bmf.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(generateBmfJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
