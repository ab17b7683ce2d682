/**
 * A JSON Schema of a script as IR (an array of instructions), generated from the zod IR schema,
 * so a JSON editor can validate and complete the IR with the same rules the pipeline uses.
 */
import * as z from 'zod';
import { IR } from '../ir/schema.js';

let cached: Record<string, unknown> | undefined;

export function irScriptJsonSchema(): Record<string, unknown> {
  if (cached) return cached;
  // `unrepresentable: 'any'` keeps generation total; every IR type is representable today.
  const one = z.toJSONSchema(IR, { unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, $defs, ...instruction } = one;
  cached = { $schema, ...($defs ? { $defs } : {}), title: 'Text2Mem script (IR)', type: 'array', items: instruction };
  return cached;
}
