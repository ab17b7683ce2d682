/**
 * Writes the VS Code extension's generated files — the TextMate grammar
 * (editors/vscode/syntaxes/t2m.tmLanguage.json, from the vocabulary and the lexer's patterns) and
 * the language configuration — from scripts/tmgrammar.ts; test/editors fails when a committed copy
 * is stale. Usage: npx tsx scripts/gen-tmgrammar.ts
 */
import { writeFileSync } from 'node:fs';
import { editorArtefacts } from './tmgrammar.js';

for (const [path, text] of Object.entries(editorArtefacts())) writeFileSync(new URL(`../${path}`, import.meta.url), text);
