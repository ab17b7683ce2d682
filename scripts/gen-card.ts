/**
 * Writes the language card's snapshots (spec/card.md, spec/card-ir.md) and spec/syntax.md's
 * "Meanings, answered" section from src/agents/card.ts; test/agents/card.test.ts fails when any is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { languageCard, SPEC_END, SPEC_START, syntaxSection } from '../src/agents/card.js';

const spec = (name: string) => new URL(`../spec/${name}`, import.meta.url);
writeFileSync(spec('card.md'), languageCard());
writeFileSync(spec('card-ir.md'), languageCard({ ir: true }));

const syntax = readFileSync(spec('syntax.md'), 'utf8');
const at = syntax.indexOf(SPEC_START);
const end = syntax.indexOf(SPEC_END);
if (at < 0 || end < at) throw new Error(`spec/syntax.md lacks the markers ${SPEC_START} … ${SPEC_END}`);
writeFileSync(spec('syntax.md'), `${syntax.slice(0, at + SPEC_START.length)}\n${syntaxSection()}\n${syntax.slice(end)}`);
