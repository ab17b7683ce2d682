/**
 * The seam between the planner and a language model: a chat provider takes messages and returns
 * the assistant's text, or diagnostics saying why there is none (an HTTP error, a body that is
 * not a completion, a timeout). Providers never throw for what the server or the network does.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** OpenAI's structured-output request field (`response_format`). */
export type ResponseFormat =
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly json_schema: { readonly name: string; readonly schema: unknown; readonly strict?: boolean } };

export interface CompleteOptions {
  /** Structured output: the reply must be JSON (of this schema), where the server offers it. */
  readonly responseFormat?: ResponseFormat;
  /** A GBNF grammar for constrained decoding (llama.cpp's `grammar` request field). */
  readonly grammar?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Ask for a streamed reply (server-sent events); the text returned is the same. */
  readonly stream?: boolean;
  readonly signal?: AbortSignal;
}

export type Completion =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export interface ChatProvider {
  complete(messages: readonly ChatMessage[], options?: CompleteOptions): Promise<Completion>;
}
