import { test } from 'node:test';
import assert from 'node:assert/strict';
import { titleCase } from '../src/strings.js';

test('titleCase, more words', () => {
  assert.equal(titleCase('x'), 'X');
  assert.equal(titleCase('the QUICK brown fox'), 'The Quick Brown Fox');
  assert.equal(titleCase(''), '');
});
