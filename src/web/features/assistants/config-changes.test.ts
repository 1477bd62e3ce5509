import { describe, expect, it } from 'vitest';
import { changedFields } from './config-changes.ts';

describe('changedFields', () => {
  const values = { first_name: 'Ada', about: undefined, weekly_limit: 20, timezone: 'Europe/Berlin', voice_id: 'v1', voice_provider: 'cartesia', age: null };

  it('sends only the fields the user changed', () => {
    expect(changedFields(values, { weekly_limit: true, timezone: true })).toEqual({ weekly_limit: 20, timezone: 'Europe/Berlin' });
  });

  it('sends a cleared field as null, never as undefined or an empty string', () => {
    const body = changedFields({ ...values, surname: '' }, { about: true, age: true, surname: true });
    expect(body).toEqual({ about: null, age: null, surname: null });
    expect(JSON.stringify(body)).toBe('{"about":null,"age":null,"surname":null}');
  });

  it('sends the voice with its provider, and clearing it sends voice_id null alone', () => {
    expect(changedFields(values, { voice_id: true, voice_provider: true })).toEqual({ voice_id: 'v1', voice_provider: 'cartesia' });
    expect(changedFields({ ...values, voice_id: null, voice_provider: null }, { voice_id: true, voice_provider: true })).toEqual({ voice_id: null });
  });

  it('sends nothing when nothing changed (dirty flags that are false do not count)', () => {
    expect(changedFields(values, {})).toEqual({});
    expect(changedFields(values, { first_name: false })).toEqual({});
  });
});
