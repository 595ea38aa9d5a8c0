/** The interface language (src/lib/i18n.ts): translations with an English fallback, language names, paged titles. */
import { describe, expect, it } from 'vitest';
import { languageName, pagedTitle, translator } from '../../../src/lib/i18n.ts';

describe('interface language', () => {
  it('translates with an English fallback and names languages in their own language', () => {
    expect(translator('nl')('releases')).toBe('Persberichten');
    expect(translator('de-AT')('releases')).toBe('Pressemitteilungen');
    expect(translator('sv')('releases')).toBe('Press releases');
    expect(translator('en')('releasesIn', { language: 'Dutch' })).toBe('Press releases in Dutch');
    expect(languageName('nl')).toBe('Nederlands');
    expect(languageName('de', 'en')).toBe('German');
  });
  it("titles a listing's numbered pages with their number alone, never the count of pages", () => {
    const t = translator('en');
    expect(pagedTitle(t, 'Coverage', { number: null })).toBe('Coverage');
    expect(pagedTitle(t, 'Coverage', { number: 2 })).toBe('Coverage (Page 2)');
    expect(pagedTitle(translator('nl'), 'In de media', { number: 1 })).toBe('In de media (Pagina 1)');
  });
});
