import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { nomineeIndex } from '../../../src/server/search/nominees.ts';
import { findSurvey, surveyCount } from '../../../src/server/surveys.ts';
import { copySurveys, editSurvey } from '../../support/survey-fixture.ts';
import { followFiles } from '../../../src/server/file-stamp.ts';

// The server checks its files at most once a second: the tests move the clock past that.
const later = () => vi.setSystemTime(Date.now() + 1500);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('the nominee index follows its file', () => {
  it('reads a changed list again, and keeps the last good one while the file is broken', () => {
    const dir = copySurveys();
    const survey = loadSurvey('members-choice', dir);
    const file = path.join(dir, 'members-choice', 'nominees.jsonl');
    const size = nomineeIndex(survey).size;
    expect(nomineeIndex(survey).has('mc-new')).toBe(false);

    writeFileSync(file, `${readFileSync(file, 'utf8')}{"id":"mc-new","name":"Nadia Newcombe"}\n`);
    expect(nomineeIndex(survey).has('mc-new')).toBe(false);
    later();
    expect(nomineeIndex(survey).size).toBe(size + 1);
    expect(
      nomineeIndex(survey)
        .engine()
        .search('newcombe')
        .hits.map((hit) => hit.id),
    ).toEqual(['mc-new']);

    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"id":"mc-bad","name":""}\n`);
    later();
    expect(nomineeIndex(survey).size).toBe(size + 1);
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
  });
});

describe('the survey registry follows the surveys folder', () => {
  it('serves a survey added or changed while it runs', () => {
    const dir = copySurveys();
    vi.stubEnv('SURVEYS_DIR', dir);
    const before = surveyCount();
    expect(findSurvey('members-choice-2')).toBeUndefined();

    cpSync(path.join(dir, 'members-choice'), path.join(dir, 'members-choice-2'), { recursive: true });
    editSurvey(dir, 'members-choice-2', ['project_id'], 'members-choice-2');
    later();
    expect(surveyCount()).toBe(before + 1);
    expect(findSurvey('members-choice-2')?.slug).toBe('members-choice-2');

    editSurvey(dir, 'members-choice-2', ['survey_title'], 'A new title');
    later();
    expect(findSurvey('members-choice-2')?.config.survey_title).toBe('A new title');
  });
});

describe('a follower whose clock is set back', () => {
  it('looks at its files again rather than waiting for the old time to come round', () => {
    let stamp = 'first';
    const follow = followFiles(
      () => stamp,
      () => stamp.toUpperCase(),
    );
    expect(follow()).toBe('FIRST');
    stamp = 'second';
    vi.setSystemTime(Date.now() - 60 * 60 * 1000);
    expect(follow()).toBe('SECOND');
  });
});
