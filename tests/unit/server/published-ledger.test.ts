import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { publishedStanding } from '../../../src/server/receipts/published-ledger.ts';

// The receipt check's reading of a published folder: the one both databases publish for peer-check.
const PUBLISHED = path.resolve(import.meta.dirname, '../../api/fixtures/published/peer-check');
const survey = mkdtempSync(path.join(tmpdir(), 'peervote-published-ledger-'));
const bare = mkdtempSync(path.join(tmpdir(), 'peervote-unpublished-'));
cpSync(PUBLISHED, path.join(survey, 'results'), { recursive: true });
afterAll(() => {
  rmSync(survey, { recursive: true, force: true });
  rmSync(bare, { recursive: true, force: true });
});

describe('a ballot in the published ledger', () => {
  test.each([
    ['7K3MQ9TD2X04', { status: 'counted', reasons: [] }],
    [
      '7K3MQ9TD2X02',
      {
        status: 'partly_counted',
        reasons: ['Cardiology, Ana Ferreira: a rule of the published methodology leaves this vote out (see "How the votes are counted")'],
      },
    ],
    ['7K3MQ9TD2X00', { status: 'replaced', reasons: ['the voter sent a newer ballot before the close, which replaced this one'] }],
    ['ZZZZZZZZZZZZ', undefined],
  ])('%s', (code, standing) => {
    expect(publishedStanding(survey, code)).toEqual(standing);
  });

  test('nothing published: no standing', () => {
    expect(publishedStanding(bare, '7K3MQ9TD2X04')).toBeUndefined();
  });
});
