/**
 * Person names, from faker (seeded, one instance per locale) so they sound
 * Dutch, German or English. Names are drawn once into small pools; the bulk
 * of the world then picks from the pools with the fast PRNG.
 */
import { Faker, base, de, en, nl } from '@faker-js/faker';
import type { Lang } from './language/pack.ts';
import { EXECUTIVE_POSITIONS } from './company.ts';
import { hash32, type Rng } from '../model/random.ts';

export interface Person {
  firstName: string;
  lastName: string;
  name: string;
  lang: Lang;
}

export interface People {
  /** The company's executives, quoted in releases. */
  executives: ReadonlyArray<Person & { position: string }>;
  /** Anyone else: partner spokespeople, appointees, keynote speakers. */
  pool: readonly Person[];
  /** A few people per language, for PR contacts. */
  byLang: Readonly<Record<Lang, readonly Person[]>>;
}

const LOCALES = { en: [en, base], nl: [nl, en, base], de: [de, en, base] } as const;

function makeFaker(seed: number, lang: Lang): Faker {
  const faker = new Faker({ locale: [...LOCALES[lang]] });
  faker.seed(hash32(seed, 'faker', lang));
  return faker;
}

function draw(faker: Faker, lang: Lang, count: number, taken: Set<string>): Person[] {
  const out: Person[] = [];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const name = `${firstName} ${lastName}`;
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({ firstName, lastName, name, lang });
  }
  return out;
}

export function makePeople(seed: number, rng: Rng): People {
  const taken = new Set<string>();
  const byLang = {} as Record<Lang, Person[]>;
  const pool: Person[] = [];
  for (const lang of ['en', 'nl', 'de'] as const) {
    const faker = makeFaker(seed, lang);
    byLang[lang] = draw(faker, lang, 40, taken);
    pool.push(...byLang[lang]);
  }
  const executives = EXECUTIVE_POSITIONS.map((position, i) => {
    const lang: Lang = position.includes('Germany') ? 'de' : i % 3 === 1 ? 'en' : 'nl';
    const person = byLang[lang][i] ?? rng.pick(pool);
    return { ...person, position };
  });
  const execNames = new Set(executives.map((e) => e.name));
  return {
    executives,
    pool: rng.shuffle(pool.filter((p) => !execNames.has(p.name))),
    byLang,
  };
}
