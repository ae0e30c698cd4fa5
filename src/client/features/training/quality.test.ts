import { describe, expect, it } from 'vitest';
import {
  QUALITY_STORAGE_KEY,
  chooseSource,
  prefersLowData,
  readQualityPreference,
  writeQualityPreference,
} from '@/features/training/quality.ts';

const HD = { height: 720, url: '/720' };
const SD = { height: 360, url: '/360' };
const BOTH = [HD, SD];

describe('the picture size', () => {
  it('plays the largest on a good link or when the browser says nothing', () => {
    expect(chooseSource(BOTH, 'auto', undefined)).toBe(HD);
    expect(chooseSource(BOTH, 'auto', { effectiveType: '4g', saveData: false })).toBe(HD);
  });

  it('plays 360p with data saver on or on a 3G or slower link', () => {
    for (const connection of [{ saveData: true, effectiveType: '4g' }, { effectiveType: '3g' }, { effectiveType: '2g' }, { effectiveType: 'slow-2g' }]) {
      expect(prefersLowData(connection)).toBe(true);
      expect(chooseSource(BOTH, 'auto', connection)).toBe(SD);
    }
  });

  it('keeps to the learner’s choice, whatever the link says', () => {
    expect(chooseSource(BOTH, 720, { saveData: true })).toBe(HD);
    expect(chooseSource(BOTH, 360, { effectiveType: '4g' })).toBe(SD);
  });

  it('takes the nearest smaller size when a part lacks the chosen one, and the only one when it has one', () => {
    const small = { height: 240, url: '/240' };
    expect(chooseSource([SD], 720, undefined)).toBe(SD);
    expect(chooseSource([small], 'auto', { saveData: true })).toBe(small);
    expect(chooseSource([small], 360, undefined)).toBe(small);
    expect(chooseSource([HD], 'auto', { effectiveType: '2g' })).toBe(HD);
    expect(chooseSource([], 'auto', undefined)).toBeUndefined();
  });

  it('remembers a choice made by hand, and forgets it on auto', () => {
    writeQualityPreference(localStorage, 360);
    expect(localStorage.getItem(QUALITY_STORAGE_KEY)).toBe('360');
    expect(readQualityPreference(localStorage)).toBe(360);
    writeQualityPreference(localStorage, 'auto');
    expect(localStorage.getItem(QUALITY_STORAGE_KEY)).toBeNull();
    expect(readQualityPreference(localStorage)).toBe('auto');
  });

  it('reads anything else stored there, or storage that throws, as auto', () => {
    localStorage.setItem(QUALITY_STORAGE_KEY, 'hd');
    expect(readQualityPreference(localStorage)).toBe('auto');
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(readQualityPreference(broken)).toBe('auto');
    localStorage.removeItem(QUALITY_STORAGE_KEY);
  });
});
