import type { Store } from './store';

export class Crawler {
  constructor(public readonly store: Store, public readonly prefix: string) {}

  label(id: string, section: string): string {
    return `${this.prefix}${this.store.name(id)}${this.store.suffix(
      id,
      section,
    )}`;
  }
}
