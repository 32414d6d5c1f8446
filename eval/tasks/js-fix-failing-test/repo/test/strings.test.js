import { test } from 'node:test';
import assert from 'node:assert/strict';
import { titleCase, truncate } from '../src/strings.js';

test('titleCase', () => {
  assert.equal(titleCase('hello wORLD'), 'Hello World');
  assert.equal(titleCase('a  b'), 'A  B');
});

test('truncate', () => {
  assert.equal(truncate('abcdef', 4), 'abc…');
  assert.equal(truncate('abc', 4), 'abc');
});
