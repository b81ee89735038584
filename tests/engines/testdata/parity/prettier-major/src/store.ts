export interface Store {
  name(id: string): string;
  suffix(id: string): string;
}
