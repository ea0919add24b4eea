import { z } from 'zod';

/** Wire format of `/v0/server/*` answers the CLI reads. */

export const serverVersionSchema = z.object({
  version: z.string().describe('Semantic version of the running API'),
});
