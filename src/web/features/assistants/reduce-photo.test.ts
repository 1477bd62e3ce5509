import { describe, expect, it } from 'vitest';
import { needsReducing, reducedDimensions } from './reduce-photo.ts';

const MiB = 1024 * 1024;

describe('reducing a photo before upload', () => {
  it('reduces a photo over 5 MiB or over 2048 px on its longer side, and leaves others alone', () => {
    expect(needsReducing({ bytes: 7 * MiB, width: 1200, height: 900 })).toBe(true);
    expect(needsReducing({ bytes: 1 * MiB, width: 4032, height: 3024 })).toBe(true);
    expect(needsReducing({ bytes: 5 * MiB, width: 2048, height: 2048 })).toBe(false);
  });

  it('brings the longer side to 2048 px and keeps the shape', () => {
    expect(reducedDimensions(4032, 3024)).toEqual({ width: 2048, height: 1536 });
    expect(reducedDimensions(3024, 4032)).toEqual({ width: 1536, height: 2048 });
    expect(reducedDimensions(2600, 1000)).toEqual({ width: 2048, height: 788 });
    expect(reducedDimensions(1200, 900)).toEqual({ width: 1200, height: 900 });
  });
});
