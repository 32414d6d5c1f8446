#!/usr/bin/env node
// todo lists the todos of a JSON file (default todos.json); --all shows the done ones too.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const all = args.includes('--all');
const file = args.find((a) => !a.startsWith('--')) ?? 'todos.json';
const todos = JSON.parse(readFileSync(file, 'utf8'));
for (const t of todos) {
  if (all || !t.done) {
    console.log(`${t.done ? '[x]' : '[ ]'} ${t.title}`);
  }
}
