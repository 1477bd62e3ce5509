import { describe, expect, it } from 'vitest';
import { addressArrived } from './use-url-filter.ts';

describe('a filter field and the address it writes to', () => {
  it('keeps what the field has when an earlier value it wrote arrives late', () => {
    // Typed "ann", paused (written), typed on to "anna" (written): the address shows "ann" only now.
    expect(addressArrived(['ann', 'anna'], 'ann')).toEqual({ pending: ['anna'], external: false });
    expect(addressArrived(['anna'], 'anna')).toEqual({ pending: [], external: false });
  });

  it('drops values overtaken by a later one that arrived first', () => {
    expect(addressArrived(['a', 'b', 'c'], 'b')).toEqual({ pending: ['c'], external: false });
  });

  it('follows a value the field never wrote (back, forward, a link)', () => {
    expect(addressArrived([], 'bob')).toEqual({ pending: [], external: true });
    expect(addressArrived(['ann'], '')).toEqual({ pending: [], external: true });
    // A cleared field writes the empty value: its arrival is ours.
    expect(addressArrived(['ann', ''], '')).toEqual({ pending: [], external: false });
  });
});
