/**
 * Text for a terminal. A stored value (a record's text, a tag, a lock's reason) may hold escape
 * sequences that recolour, retitle or rewrite a terminal, a carriage return that overwrites the
 * line before it, or a bidirectional override (U+202E) that shows it reversed: the CLI's text
 * output shows all of them escaped (`\u001b`, `\r`), as JSON would. JSON output is left as it
 * is (JSON.stringify escapes the C0 controls; the rest is data for a program).
 */

/** C0 controls but the line feed, DEL, C1 controls, bidirectional controls, line and paragraph separators. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escape = (c: string): string => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Lines of text with every control character but the line feed escaped. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** One line: the line feed escaped too (`\n`), so a value cannot start a line of its own. */
export function oneLine(text: string): string {
  return text.replace(UNSAFE_OR_NEWLINE, escape);
}

