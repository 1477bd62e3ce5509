import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescedTimeouts } from './coalesced-timeouts.ts';

// The platform's timers and clock are vitest's fake ones: time moves only when a test advances it.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('coalescedTimeouts', () => {
  it('runs each timer once, at its time, earliest first, on one platform timer', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('gc'), 300_000);
    timers.setTimeout(() => ran.push('stale 15s'), 15_000);
    for (let i = 0; i < 20; i++) timers.setTimeout(() => ran.push(`stale ${i}`), 15_000 + i);
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(14_999);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['stale 15s', 'stale 0']);
    vi.advanceTimersByTime(19);
    expect(ran).toHaveLength(21);
    expect(ran.at(-1)).toBe('stale 19');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(300_000);
    expect(ran.at(-1)).toBe('gc');
    expect(ran).toHaveLength(22);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wakes earlier for a timer due before the one it waits for', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('late'), 5_000);
    timers.setTimeout(() => ran.push('retry'), 1_000);
    vi.advanceTimersByTime(1_000);
    expect(ran).toEqual(['retry']);
    vi.advanceTimersByTime(4_000);
    expect(ran).toEqual(['retry', 'late']);
  });

  it('never runs a cleared timer, and still runs the others', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    const first = timers.setTimeout(() => ran.push('first'), 100);
    timers.setTimeout(() => ran.push('second'), 200);
    const third = timers.setTimeout(() => ran.push('third'), 300);
    timers.clearTimeout(first);
    timers.clearTimeout(third);
    timers.clearTimeout(undefined);
    vi.advanceTimersByTime(1_000);
    expect(ran).toEqual(['second']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never runs a timer that one due at the same wake-up cleared before it', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    let second = 0;
    timers.setTimeout(() => {
      ran.push('first');
      timers.clearTimeout(second);
    }, 100);
    second = timers.setTimeout(() => ran.push('second'), 100);
    timers.setTimeout(() => ran.push('third'), 100);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(['first', 'third']);
  });

  it('takes a timer set by a running one, and a zero or negative delay as now', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    timers.setTimeout(() => {
      ran.push('outer');
      timers.setTimeout(() => ran.push('inner'), 50);
    }, 100);
    timers.setTimeout(() => ran.push('negative'), -5);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['negative']);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(['negative', 'outer']);
    vi.advanceTimersByTime(50);
    expect(ran).toEqual(['negative', 'outer', 'inner']);
  });

  it('runs the other due timers when one throws, and lets the error surface', () => {
    const timers = coalescedTimeouts();
    const ran: string[] = [];
    timers.setTimeout(() => {
      throw new Error('boom');
    }, 10);
    timers.setTimeout(() => ran.push('after'), 10);
    timers.setTimeout(() => ran.push('later'), 20);
    // Thrown out of the platform timer's callback once the others due have run.
    expect(() => vi.advanceTimersByTime(10)).toThrow('boom');
    expect(ran).toEqual(['after']);
    vi.advanceTimersByTime(10);
    expect(ran).toEqual(['after', 'later']);
  });

  it('reports every error when several due timers throw', () => {
    const timers = coalescedTimeouts();
    for (const message of ['one', 'two'])
      timers.setTimeout(() => {
        throw new Error(message);
      }, 10);
    expect(() => vi.advanceTimersByTime(10)).toThrow(expect.objectContaining({ errors: [new Error('one'), new Error('two')] }));
  });

  it('leaves intervals to the platform', () => {
    const timers = coalescedTimeouts();
    let ticks = 0;
    const id = timers.setInterval(() => ticks++, 1_000);
    vi.advanceTimersByTime(3_000);
    timers.clearInterval(id);
    vi.advanceTimersByTime(3_000);
    expect(ticks).toBe(3);
  });
});
