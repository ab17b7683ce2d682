/**
 * The status bar at the foot of the page (one line, ellipsized, the full text in its title; an
 * ARIA live region, so screen readers announce it) and the clock field beside Run.
 */
import { h } from './dom.js';

export class StatusLine {
  readonly el = h('div', { class: 'statusbar', role: 'status', 'aria-live': 'polite', 'data-testid': 'status' });

  /** `tone` 'error' shows the message as a problem (a refused run, a bad clock, a failed save). */
  set(text: string, tone?: 'error'): void {
    this.el.textContent = text;
    this.el.title = text;
    this.el.classList.toggle('error', tone === 'error');
  }

  get isEmpty(): boolean {
    return !this.el.textContent;
  }
}

export class Clock {
  readonly el = h('input', {
    class: 'clock', type: 'text', size: 22, placeholder: 'clock: now', 'aria-label': 'Clock',
    title: 'The clock scripts run against (ISO-8601, e.g. 2025-10-01T00:00:00Z); empty = the real time',
    oninput: () => this.validate(),
  });

  /** The field's time, the real time when it is empty, or undefined when it holds no valid time. */
  now(): Date | undefined {
    const text = this.el.value.trim();
    if (!text) return new Date();
    const t = new Date(text);
    return Number.isNaN(t.getTime()) ? undefined : t;
  }

  /** Why the field's text is not a time, if it is not. */
  error(): string | undefined {
    return this.now() ? undefined : `the clock "${this.el.value.trim()}" is not an ISO-8601 time (e.g. 2025-10-01T00:00:00Z); clear it to use the real time`;
  }

  set(iso: string): void {
    this.el.value = iso;
    this.validate();
  }

  /** Marks the field invalid (red, `aria-invalid`, the reason in its title) while it holds no time. */
  private validate(): void {
    const error = this.error();
    this.el.classList.toggle('invalid', !!error);
    if (error) this.el.setAttribute('aria-invalid', 'true');
    else this.el.removeAttribute('aria-invalid');
    this.el.title = error ?? 'The clock scripts run against (ISO-8601, e.g. 2025-10-01T00:00:00Z); empty = the real time';
  }
}
