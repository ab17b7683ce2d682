/**
 * The planner's instructions: the language card (what the model must know of Text2Mem) and the
 * answer format for each mode. `fallbackCard` is a short card used until a caller passes one.
 */
export type PlanMode = 'dsl' | 'ir';

/** A compact description of the DSL (the full card is `languageCard()` in ./card.ts when present). */
export function fallbackCard(options: { ir?: boolean } = {}): string {
  const dsl = `# Text2Mem

Text2Mem is a language of memory operations for agents. A script is statements separated by \`;\`.
Verbs: ENCODE (store a memory), UPDATE, LABEL, PROMOTE, DEMOTE, MERGE, SPLIT, LOCK, EXPIRE, DELETE,
RETRIEVE, SUMMARIZE. Keywords are case-insensitive.

A statement names its target: \`ID "7"\`, \`IDS "1", "2"\`, \`ALL\` (needs CONFIRM), or
\`WHERE <conditions> [LIMIT n]\` with conditions joined by AND: \`tags HAS "x"\`, \`type = "note"\`,
\`time LAST 7 DAYS\`, \`search "text"\`. Writes over a filter should have a LIMIT.

Examples:
ENCODE "Q2 OKR review: reach +25%" TYPE note TAGS "OKR", "review" TIME 2025-04-10T15:30:00Z;
PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9;
LOCK WHERE tags HAS "incident" LIMIT 200 MODE read_only REASON "audit";
DELETE WHERE tags HAS "spam" AND time LAST 7 DAYS LIMIT 50 SOFT;
RETRIEVE WHERE search "OKR review" ORDER BY weight_desc LIMIT 10 INCLUDE id, text, weight;
SUMMARIZE WHERE search "incident" LIMIT 5 FOCUS "root cause" MAX 120 TOKENS;`;
  if (!options.ir) return dsl;
  return `${dsl}

Each statement is one JSON IR object: {"stage": "ENC"|"STO"|"RET", "op": "<Verb>", "target": {...},
"args": {...}, "meta": {...}}. Encode is stage ENC; Retrieve and Summarize RET; the rest STO.
For example {"stage":"STO","op":"Delete","target":{"filter":{"has_tags":["spam"],"limit":50}},"args":{"soft":true}}.`;
}

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
