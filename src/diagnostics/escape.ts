/**
 * Showing text that may hold anything (a record's text, a tag, a lock's reason) to a terminal or
 * to a language model. A stored value may hold escape sequences that recolour, retitle or
 * rewrite a terminal, a carriage return that overwrites the line before it, line breaks of other
 * kinds (U+0085, U+2028) that start a line for some readers, or a bidirectional override (U+202E)
 * that shows it reversed: all of them are shown escaped, as JSON would (`\u001b`, `\n`).
 */

/** C0 controls, DEL, C1 controls, bidirectional controls, the line and paragraph separators. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, the line feed left out. */
const CONTROLS_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escape = (c: string): string => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One line: every control character escaped, the line feed too (`\n`), so the text cannot start a line of its own. */
export function oneLine(text: string): string {
  return text.replace(CONTROLS, escape);
}

/** Lines of text: every control character but the line feed escaped. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS_BUT_LF, escape);
}
