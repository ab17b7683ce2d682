/**
 * The Ask box above the script tabs: a request in words → a checked DSL draft appended to the
 * editor (never run), through the project's planner (`ask-plan.ts`, imported on the first Ask)
 * and an OpenAI-compatible endpoint the user configures in the settings dialog. The endpoint
 * (base URL, model, API key) is kept in this browser's localStorage and sent only to that
 * endpoint, with each request. Without one, the box says how to set it.
 */
import { h } from './dom.js';
import type { Endpoint } from './ask-plan.js';

export type { Endpoint };

const STORAGE_KEY = 't2m.ask.endpoint';
const MAX_ROUNDS = 3;

export interface AskEvents {
  /** The page's store for the planner (vocabulary, related memories, dry run); undefined before it opens. */
  store(): import('../../src/engine/index.js').Store | undefined;
  now(): Date;
  status(text: string): void;
  /** Puts the checked draft into the editor (the page decides where: appended as a block). */
  insert(request: string, dsl: string): Promise<void>;
}

export function loadEndpoint(): Endpoint | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Endpoint> | null;
    if (value && typeof value.baseUrl === 'string' && value.baseUrl && typeof value.model === 'string' && value.model) {
      return { baseUrl: value.baseUrl, model: value.model, apiKey: typeof value.apiKey === 'string' ? value.apiKey : '' };
    }
  } catch {
    // Storage blocked or a corrupt value: as if nothing were set.
  }
  return undefined;
}

export function saveEndpoint(endpoint: Endpoint | undefined): void {
  if (endpoint) localStorage.setItem(STORAGE_KEY, JSON.stringify(endpoint));
  else localStorage.removeItem(STORAGE_KEY);
}

const UNCONFIGURED = 'Ask drafts DSL with a language model: set an OpenAI-compatible endpoint (base URL, model, API key) with “Endpoint…” first.';

export class AskPanel {
  private readonly input = h('input', {
    id: 'ask-input', type: 'text', autocomplete: 'off', 'data-testid': 'ask-input',
    placeholder: 'Ask: describe what to do with memory…',
    'aria-describedby': 'ask-hint',
  });
  private readonly submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'ask-submit', title: 'Draft DSL for the request into the editor (not run)' }, 'Ask');
  private readonly settingsButton = h('button', {
    type: 'button', 'data-testid': 'ask-settings', title: 'Set the OpenAI-compatible endpoint the Ask box uses',
    'aria-haspopup': 'dialog', onclick: () => this.openSettings(),
  }, 'Endpoint…');
  /** How to configure, or the last failure's diagnostics (with code frames). */
  private readonly hint = h('div', { id: 'ask-hint', class: 'ask-hint', 'data-testid': 'ask-hint', role: 'status', 'aria-live': 'polite' });
  private readonly fields = {
    baseUrl: h('input', { id: 'ask-base-url', type: 'url', required: true, placeholder: 'https://api.openai.com/v1', 'data-testid': 'ask-base-url', autocomplete: 'off' }),
    model: h('input', { id: 'ask-model', type: 'text', required: true, placeholder: 'gpt-4o-mini', 'data-testid': 'ask-model', autocomplete: 'off' }),
    apiKey: h('input', { id: 'ask-api-key', type: 'password', placeholder: '(none)', 'data-testid': 'ask-api-key', autocomplete: 'off' }),
  };
  private readonly dialog: HTMLDialogElement;
  readonly el: HTMLElement;
  private controller?: AbortController;
  /** The request asked before an endpoint was set: saving the endpoint sends it. */
  private pending?: string;

  constructor(private readonly events: AskEvents) {
    const form = h('form', { class: 'ask', 'data-testid': 'ask', 'aria-label': 'Ask the model for a script' },
      h('label', { for: 'ask-input' }, 'Ask'),
      this.input, this.submit, this.settingsButton);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (this.controller) this.controller.abort();
      else void this.ask(this.input.value);
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.controller) this.controller.abort();
    });
    this.dialog = this.renderDialog();
    this.el = h('div', { class: 'ask-box' }, form, this.hint, this.dialog);
    this.showConfigured();
  }

  private showConfigured(): void {
    const endpoint = loadEndpoint();
    this.hint.classList.remove('error');
    this.hint.textContent = endpoint ? '' : UNCONFIGURED;
    this.settingsButton.title = endpoint ? `Endpoint: ${endpoint.model} at ${endpoint.baseUrl}` : 'Set the OpenAI-compatible endpoint the Ask box uses';
  }

  private renderDialog(): HTMLDialogElement {
    const { baseUrl, model, apiKey } = this.fields;
    const form = h('form', { method: 'dialog' },
      h('h2', { id: 'ask-settings-title' }, 'Ask: model endpoint'),
      h('label', { for: 'ask-base-url' }, 'Base URL (OpenAI-compatible, the part before /chat/completions)', baseUrl),
      h('label', { for: 'ask-model' }, 'Model', model),
      h('label', { for: 'ask-api-key' }, 'API key (optional; sent as Authorization: Bearer …)', apiKey),
      h('p', { class: 'note' }, 'Kept in this browser (localStorage) and sent only to this endpoint, with each Ask. The request goes from this page straight to the endpoint, so it must allow cross-origin requests (CORS). The model sees the language card, your request, the store’s tags, types and subjects, and the memories most related to the request.'),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', 'data-testid': 'ask-forget', title: 'Remove the endpoint and key from this browser', onclick: () => {
          saveEndpoint(undefined);
          for (const f of Object.values(this.fields)) f.value = '';
          this.dialog.close();
          this.showConfigured();
          this.events.status('Ask: endpoint forgotten');
        } }, 'Forget'),
        h('button', { type: 'button', onclick: () => this.dialog.close() }, 'Cancel'),
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'ask-save' }, 'Save')));
    form.addEventListener('submit', (e) => {
      if (!form.reportValidity()) {
        e.preventDefault();
        return;
      }
      saveEndpoint({ baseUrl: baseUrl.value.trim(), model: model.value.trim(), apiKey: apiKey.value });
      this.showConfigured();
      this.events.status('Ask: endpoint saved in this browser');
      const pending = this.pending;
      this.pending = undefined;
      if (pending && !this.controller) void this.ask(pending);
    });
    const dialog = h('dialog', { class: 'ask-settings', 'data-testid': 'ask-dialog', 'aria-labelledby': 'ask-settings-title' }, form);
    dialog.addEventListener('close', () => {
      // Cancelled (or forgotten): the request waits for the next Ask.
      this.pending = undefined;
      if (!this.controller) this.settingsButton.focus();
    });
    return dialog;
  }

  openSettings(): void {
    const endpoint = loadEndpoint();
    this.fields.baseUrl.value = endpoint?.baseUrl ?? '';
    this.fields.model.value = endpoint?.model ?? '';
    this.fields.apiKey.value = endpoint?.apiKey ?? '';
    this.dialog.showModal();
    (endpoint ? this.fields.model : this.fields.baseUrl).focus();
  }

  /** Asks the planner for a draft of `request` and hands a checked one to the page; resolves when done. */
  async ask(request: string): Promise<void> {
    request = request.trim();
    if (!request) {
      this.input.focus();
      return;
    }
    const endpoint = loadEndpoint();
    if (!endpoint) {
      this.showConfigured();
      this.events.status('Ask: set an endpoint first; saving it sends the request');
      this.pending = request;
      this.openSettings();
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.submit.textContent = 'Cancel';
    this.submit.title = 'Stop asking (Escape)';
    this.input.readOnly = true;
    this.hint.classList.remove('error');
    this.hint.textContent = '';
    this.events.status('Ask: asking model…');
    try {
      const { draft } = await import('./ask-plan.js');
      const result = await draft(request, {
        endpoint, store: this.events.store(), now: this.events.now(), maxRounds: MAX_ROUNDS,
        progress: (text) => this.events.status(text), signal: controller.signal,
      });
      if (result.ok) {
        await this.events.insert(request, result.dsl);
        this.input.value = '';
        // Warnings of a good draft are worth a look; errors there are none.
        this.hint.textContent = result.report;
      } else {
        this.hint.classList.add('error');
        this.hint.textContent = controller.signal.aborted ? 'cancelled' : result.report;
      }
      this.events.status(controller.signal.aborted ? 'Ask: cancelled' : result.summary);
    } catch (e) {
      this.hint.classList.add('error');
      this.hint.textContent = (e as Error).stack ?? String(e);
      this.events.status(`Ask failed: ${(e as Error).message}`);
    } finally {
      this.controller = undefined;
      this.submit.textContent = 'Ask';
      this.submit.title = 'Draft DSL for the request into the editor (not run)';
      this.input.readOnly = false;
      this.input.focus();
    }
  }
}
