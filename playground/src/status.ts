/** The status line at the right of the header (ellipsized; the full text is in its title) and the clock field beside Run. */
import { h } from './dom.js';

export class StatusLine {
  readonly el = h('span', { class: 'status', 'data-testid': 'status' });

  set(text: string): void {
    this.el.textContent = text;
    this.el.title = text;
  }

  get isEmpty(): boolean {
    return !this.el.textContent;
  }
}

export class Clock {
  readonly el = h('input', {
    class: 'clock', type: 'text', size: 22, placeholder: 'clock: now', 'aria-label': 'Clock',
    title: 'The clock scripts run against (ISO-8601, e.g. 2025-10-01T00:00:00Z); empty = the real time',
  });

  /** The clock for a run: the field's time when it holds a valid one, else the real time. */
  now(): Date {
    const text = this.el.value.trim();
    const t = text ? new Date(text) : new Date();
    return Number.isNaN(t.getTime()) ? new Date() : t;
  }

  set(iso: string): void {
    this.el.value = iso;
  }
}
