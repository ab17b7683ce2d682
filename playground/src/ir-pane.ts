/**
 * The IR pane: the script as JSON IR, kept in step with the script editor, and edits to the IR
 * converted back to DSL (debounced) and written into the script. Owns the pane's note line.
 */
import { debouncer, h } from './dom.js';
import type { EditorHost } from './editor-host.js';
import { analyze, irsToDsl } from './library.js';

const EDIT_DEBOUNCE_MS = 400;

export class IrPane {
  /** The line above the IR editor: what the pane shows, or why the IR cannot be shown or used. */
  readonly note = h('div', { class: 'pane-note' });
  /** The user has edited the IR since it was last written from (or into) the script. */
  private dirty = false;
  private readonly later = debouncer(EDIT_DEBOUNCE_MS);

  constructor(private readonly editors: EditorHost) {}

  /** After a new analysis of the script: rewrite the IR, unless the user is in the middle of editing it. */
  onAnalysis(scriptText: string): void {
    if (!this.dirty || !this.editors.irFocused()) this.sync(scriptText);
  }

  /** The user typed in the IR editor. */
  onEdited(): void {
    this.dirty = true;
    this.later(() => this.applyEdit());
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
    this.setNote('The script as JSON IR, one instruction per statement. Edit it: the DSL follows.');
  }

  private applyEdit(): void {
    const text = this.editors.irText();
    if (text === undefined || this.editors.scriptText() === undefined) return;
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
    this.setNote('IR converted back to DSL.');
    this.editors.editScript(result.text, 'ir-pane');
    this.dirty = false;
  }

  private setNote(text: string, error = false): void {
    this.note.className = error ? 'pane-note error' : 'pane-note';
    this.note.textContent = text;
  }
}
