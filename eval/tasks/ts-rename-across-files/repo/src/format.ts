import type { UserRec } from './types.js';

export function label(u: UserRec): string {
  return `${u.name} <${u.email}>`;
}

export function labels(us: readonly UserRec[]): string[] {
  return us.map(label);
}
