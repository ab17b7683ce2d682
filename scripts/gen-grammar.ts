/**
 * Writes the artefacts generated from the grammar: grammar/generated/{diagrams.html,grammar.ebnf,grammar.gbnf},
 * and the GBNF as a module (src/agents/gbnf.ts) for `t2m plan --grammar gbnf` and the library.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DIR, GENERATED_FILES, gbnfModule } from './grammar-artefacts.js';

mkdirSync(GENERATED_DIR, { recursive: true });
for (const [name, render] of GENERATED_FILES) {
  const text = render();
  writeFileSync(join(GENERATED_DIR, name), text);
  console.log(`wrote grammar/generated/${name} (${text.length} chars)`);
}

writeFileSync(join(GENERATED_DIR, '../../src/agents/gbnf.ts'), gbnfModule());
console.log('wrote src/agents/gbnf.ts');
