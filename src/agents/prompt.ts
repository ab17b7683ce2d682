/** The planner's instructions besides the language card (./card.ts): the answer format, the repair message, reading the reply. */
export type PlanMode = 'dsl' | 'ir';

export function answerFormat(mode: PlanMode): string {
  return mode === 'ir'
    ? '## Your answer\n\nTranslate the user\'s request into Text2Mem instructions. Reply with one JSON object `{"schema_list": [<IR>, ...]}` and nothing else: no prose, no Markdown.'
    : '## Your answer\n\nTranslate the user\'s request into a Text2Mem DSL script. Reply with the script only: no prose, no Markdown fences, statements ending with `;`.';
}

export function repairMessage(mode: PlanMode, report: string): string {
  return `The ${mode === 'ir' ? 'JSON' : 'script'} you sent has errors:\n\n${report}\n\nReply with the whole corrected ${mode === 'ir' ? 'JSON object' : 'script'} only.`;
}

/** The script inside a reply: the first fenced block if there is one, else the whole text. */
export function extractScript(reply: string, mode: PlanMode): string {
  const fenced = /```[\w-]*[ \t]*\r?\n([\s\S]*?)```/.exec(reply);
  let text = (fenced ? fenced[1] : reply).trim();
  if (mode === 'ir') {
    const start = text.search(/[[{]/);
    if (start > 0) text = text.slice(start);
  }
  return text;
}
