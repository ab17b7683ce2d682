/**
 * The IR pane: the script as JSON IR, kept in step with the script editor, and edits to the IR
 * converted back to DSL (debounced) and written into the script, keeping its `#` comments and
 * blank lines (`ir-merge.ts`; the IR has no place for them). Owns the pane's note line.
 */
import { confirmDialog } from './confirm.js';
import { debouncer, h } from './dom.js';
import type { EditorHost } from './editor-host.js';
import { mergeIrEdit } from './ir-merge.js';
import { analyze, irsToDsl, printIr } from './library.js';
import { tokenize } from '../../src/syntax/lex.js';

const EDIT_DEBOUNCE_MS = 400;

export class IrPane {
  /** The line above the IR editor: what the pane shows, or why the IR cannot be shown or used. */
  readonly note = h('div', { class: 'pane-note' });
  /** The user has edited the IR since it was last written from (or into) the script. */
  private dirty = false;
  private readonly later = debouncer(EDIT_DEBOUNCE_MS);
  /** The script text an IR edit last wrote: its analysis rewrites the IR but keeps the note saying what the edit did. */
  private written?: string;

  constructor(private readonly editors: EditorHost) {}

  /** After a new analysis of the script: rewrite the IR, unless the user is in the middle of editing it. */
  onAnalysis(scriptText: string): void {
    if (!this.dirty || !this.editors.irFocused()) this.sync(scriptText);
  }

  /** The user typed in the IR editor. */
  onEdited(): void {
    this.dirty = true;
    this.later(() => void this.applyEdit());
  }

  private sync(scriptText: string): void {
    if (!this.editors.hasIrEditor()) return;
    const { irs, diagnostics } = analyze(scriptText);
    if (irs.length === 0 && diagnostics.some((d) => d.severity === 'error')) {
      this.note.textContent = 'Fix the errors in the script to see its IR.';
      return;
    }
    this.editors.setIrText(JSON.stringify(irs, null, 2));
    this.dirty = false;
    if (scriptText === this.written) return;
    this.written = undefined;
    this.setNote('The script as JSON IR, one instruction per statement. Edit it: the DSL follows.');
  }

  private async applyEdit(): Promise<void> {
    const text = this.editors.irText();
    const script = this.editors.scriptText();
    if (text === undefined || script === undefined) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      this.setNote(`Not valid JSON: ${(e as Error).message}`, true);
      return;
    }
    const result = irsToDsl(Array.isArray(json) ? json : [json]);
    if (result.text === undefined) {
      this.setNote(result.diagnostics.map((d) => `${d.statement !== undefined ? `#${d.statement + 1} ` : ''}${d.path ? `${d.path}: ` : ''}${d.message}`).join('\n'), true);
      return;
    }
    const old = analyze(script);
    const merged = mergeIrEdit(script, old.irs, old.sourceMaps, result.irs!, printIr);
    if (merged) {
      this.written = merged.text;
      if (merged.text !== script) this.editors.editScript(merged.text, 'ir-pane');
      const moved = merged.movedComments ? ` ${merged.movedComments} comment${merged.movedComments === 1 ? '' : 's'} from inside a changed statement kept above it.` : '';
      this.setNote(`IR converted back to DSL; comments and blank lines kept.${moved}`);
      this.dirty = false;
      return;
    }
    // No statement spans to keep the comments by: ask before the printed text replaces them.
    const comments = tokenize(script).tokens.filter((t) => t.kind === 'comment').length;
    if (comments && !await confirmDialog('Replace the script?', `The script's ${comments} comment${comments === 1 ? '' : 's'} cannot be kept: the IR edit replaces the whole script with its canonical DSL (undo with Ctrl/Cmd-Z).`, 'Replace')) {
      this.setNote('IR edit not applied: the script and its comments are unchanged.', true);
      return;
    }
    this.setNote('IR converted back to DSL.');
    this.editors.editScript(result.text, 'ir-pane');
    this.dirty = false;
  }

  private setNote(text: string, error = false): void {
    this.note.className = error ? 'pane-note error' : 'pane-note';
    this.note.textContent = text;
  }
}
