/**
 * Writes the artefacts generated from the grammar: grammar/generated/{diagrams.html,grammar.ebnf,grammar.gbnf}.
 * (The library builds its GBNF itself: src/syntax/gbnf.ts.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DIR, GENERATED_FILES } from './grammar-artefacts.js';

mkdirSync(GENERATED_DIR, { recursive: true });
for (const [name, render] of GENERATED_FILES) {
  const text = render();
  writeFileSync(join(GENERATED_DIR, name), text);
  console.log(`wrote grammar/generated/${name} (${text.length} chars)`);
}
