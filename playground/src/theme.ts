/**
 * Light and dark themes: `auto` follows the system (`prefers-color-scheme`), or the user picks
 * one with the header's toggle (kept in localStorage). The page's colours are CSS variables
 * keyed on `<html data-theme>`; the editors switch their Monaco theme through `onChange`.
 */
export type ThemeSetting = 'auto' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const KEY = 't2m.theme';
const ORDER: readonly ThemeSetting[] = ['auto', 'light', 'dark'];

export class Themes {
  private setting: ThemeSetting;
  private readonly media = matchMedia('(prefers-color-scheme: dark)');
  private readonly listeners: ((theme: Theme) => void)[] = [];

  constructor() {
    const saved = localStorage.getItem(KEY);
    this.setting = ORDER.includes(saved as ThemeSetting) ? saved as ThemeSetting : 'auto';
    this.media.addEventListener('change', () => this.apply());
    this.apply();
  }

  get current(): Theme {
    return this.setting === 'auto' ? (this.media.matches ? 'dark' : 'light') : this.setting;
  }

  get choice(): ThemeSetting {
    return this.setting;
  }

  onChange(listener: (theme: Theme) => void): void {
    this.listeners.push(listener);
    listener(this.current);
  }

  /** auto → light → dark → auto. */
  next(): void {
    this.set(ORDER[(ORDER.indexOf(this.setting) + 1) % ORDER.length]);
  }

  set(setting: ThemeSetting): void {
    this.setting = setting;
    localStorage.setItem(KEY, setting);
    this.apply();
  }

  private apply(): void {
    document.documentElement.dataset.theme = this.current;
    for (const l of this.listeners) l(this.current);
  }
}
