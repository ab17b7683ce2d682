/**
 * The IR pane's edits written back into the DSL keep the script's comments and blank lines
 * (playground/src/ir-merge.ts), whatever the edit: a value changed, a statement added, removed.
 */
import { describe, expect, it } from 'vitest';
import { mergeIrEdit } from '../../playground/src/ir-merge.js';
import type { IR } from '../../src/ir/schema.js';
import { irsToText, textToIr } from '../../src/pipeline.js';

const SCRIPT = `# Groceries, kept for the week

ENCODE "Buy milk" TYPE task TAGS "shopping"; # the usual

# what is left to buy
RETRIEVE WHERE tags HAS "shopping" # by tag
  LIMIT 3;

# end of script
`;

function edit(text: string, change: (irs: IR[]) => IR[]) {
  const old = textToIr(text);
  expect(old.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const irs = change(JSON.parse(JSON.stringify(old.irs)) as IR[]);
  const merged = mergeIrEdit(text, old.irs, old.sourceMaps, irs, (ir) => irsToText([ir]));
  expect(merged).toBeDefined();
  // The text says what the IR says.
  expect(textToIr(merged!.text).irs).toEqual(textToIr(irsToText(irs)).irs);
  return merged!;
}

describe('IR pane edits keep the DSL comments', () => {
  it('an unchanged IR leaves the text exactly as it is', () => {
    expect(edit(SCRIPT, (irs) => irs).text).toBe(SCRIPT);
  });

  it('a changed value rewrites that statement only; the comments inside it move above it', () => {
    const merged = edit(SCRIPT, (irs) => {
      (irs[1] as { target: { filter: { limit: number } } }).target.filter.limit = 5;
      return irs;
    });
    expect(merged.text).toBe(`# Groceries, kept for the week

ENCODE "Buy milk" TYPE task TAGS "shopping"; # the usual

# what is left to buy
# by tag
RETRIEVE WHERE tags HAS "shopping" LIMIT 5;

# end of script
`);
    expect(merged).toMatchObject({ rewritten: 1, added: 0, removed: 0, movedComments: 1 });
  });

  it('an added statement goes after the one before it, a removed one leaves its comments and no empty line', () => {
    const added = edit(SCRIPT, (irs) => [irs[0], { ...irs[0], args: { ...(irs[0] as { args: object }).args, payload: { text: 'Buy eggs' } } } as IR, irs[1]]);
    expect(added.text).toContain('ENCODE "Buy milk" TYPE task TAGS "shopping"; # the usual\nENCODE "Buy eggs"');
    expect(added.text).toContain('# Groceries, kept for the week\n\n');
    expect(added.text).toContain('# what is left to buy\nRETRIEVE WHERE tags HAS "shopping" # by tag\n  LIMIT 3;\n\n# end of script\n');
    expect(added.added).toBe(1);

    const removed = edit(SCRIPT, (irs) => [irs[1]]);
    expect(removed.text).toBe(`# Groceries, kept for the week

# the usual

# what is left to buy
RETRIEVE WHERE tags HAS "shopping" # by tag
  LIMIT 3;

# end of script
`);
    expect(removed.removed).toBe(1);
  });

  it('an IR written into an empty script becomes its text', () => {
    const irs = textToIr('ENCODE "x";').irs;
    expect(mergeIrEdit('', [], [], irs, (ir) => irsToText([ir]))?.text).toBe('ENCODE "x";\n');
  });
});
