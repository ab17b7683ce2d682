/**
 * The divider between the editor column and the panes: drag it, or focus it and use ←/→ (Home/End
 * resets to half and half). A `separator` with its value in percent; the split is kept in
 * localStorage. Under the single-column layout (narrow windows) it is hidden.
 */
import { h } from './dom.js';

const KEY = 't2m.split';
const MIN = 20;
const MAX = 80;
const STEP = 3;

export class Splitter {
  readonly el = h('div', {
    class: 'splitter', role: 'separator', tabindex: 0, 'aria-orientation': 'vertical', 'aria-label': 'Resize the editor and the panes',
    'aria-valuemin': MIN, 'aria-valuemax': MAX, 'data-testid': 'splitter', title: 'Drag, or focus and use ← → to resize',
  });
  private percent: number;

  constructor(private readonly main: HTMLElement) {
    const saved = Number(localStorage.getItem(KEY));
    this.percent = saved >= MIN && saved <= MAX ? saved : 50;
    this.apply();
    this.el.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      this.el.setPointerCapture(e.pointerId);
      const move = (ev: PointerEvent) => {
        const box = this.main.getBoundingClientRect();
        this.set(((ev.clientX - box.left) / box.width) * 100);
      };
      const up = () => {
        this.el.removeEventListener('pointermove', move);
        this.el.removeEventListener('pointerup', up);
      };
      this.el.addEventListener('pointermove', move);
      this.el.addEventListener('pointerup', up);
    });
    this.el.addEventListener('keydown', (e) => {
      const by: Record<string, number> = { ArrowLeft: -STEP, ArrowRight: STEP };
      if (e.key in by) this.set(this.percent + by[e.key]);
      else if (e.key === 'Home' || e.key === 'End') this.set(50);
      else return;
      e.preventDefault();
    });
  }

  set(percent: number): void {
    this.percent = Math.round(Math.max(MIN, Math.min(MAX, percent)));
    localStorage.setItem(KEY, String(this.percent));
    this.apply();
  }

  private apply(): void {
    this.main.style.setProperty('--split', `${this.percent}fr`);
    this.main.style.setProperty('--split-rest', `${100 - this.percent}fr`);
    this.el.setAttribute('aria-valuenow', String(this.percent));
  }
}
