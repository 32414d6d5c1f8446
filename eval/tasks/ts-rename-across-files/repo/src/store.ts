import type { UserRec } from './types.js';
import { UserRecCount } from './types.js';

const users = new Map<number, UserRec>();

export function save(u: UserRec): void {
  users.set(u.id, u);
}

export function page(n: number): UserRec[] {
  return [...users.values()].slice(n * UserRecCount, (n + 1) * UserRecCount);
}
