/** Custom pages: about, press policy, brand guidelines, a Dutch "about", and one draft. */
import type { Page, Tag } from '../model/types.ts';
import { COMPANY } from './company.ts';
import { DAY, HOUR, between, iso } from './dates.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import type { Rng } from '../model/random.ts';
import { hidden, visible } from './visibility.ts';

interface PageSeed {
  title: string;
  slug: string;
  language: string;
  menu: boolean;
  draft?: boolean;
  tag?: string;
  body: string;
}

const PAGES: readonly PageSeed[] = [
  {
    title: 'About us',
    slug: 'about-us',
    language: 'en',
    menu: true,
    tag: 'corporate',
    body: `<h2>Moving cities forward</h2>
<p>${COMPANY.name} designs electric bikes, cargo bikes and shared e-scooters, and runs the Northwind Hub network for charging and secure parking.</p>
<h3>At a glance</h3>
<ul><li>Headquarters: Amsterdam</li><li>Assembly: Eindhoven</li><li>Markets: the Netherlands, Belgium, Germany, Austria, Denmark</li></ul>
<p>Read more on <a href="${COMPANY.siteUrl}/about">our corporate site</a>.</p>`,
  },
  {
    title: 'Press policy',
    slug: 'press-policy',
    language: 'en',
    menu: true,
    body: `<h2>Working with the press office</h2>
<p>We answer media questions within one working day. Embargoed material is shared only with journalists who have agreed to the embargo in writing.</p>
<ol><li>Send your question to <a href="mailto:${COMPANY.pressEmail}">${COMPANY.pressEmail}</a>.</li><li>Tell us your deadline.</li><li>We arrange interviews, test bikes and factory visits.</li></ol>
<p><em>Images in this newsroom may be used for editorial purposes with the credit “Photo: Northwind Mobility”.</em></p>`,
  },
  {
    title: 'Brand guidelines',
    slug: 'brand-guidelines',
    language: 'en',
    menu: true,
    tag: 'design',
    body: `<h2>Using the Northwind logo</h2>
<p>Use the logo on a plain background with clear space of at least the height of the “N” on every side. Do not stretch, recolour or rotate it.</p>
<table><thead><tr><th>Colour</th><th>Hex</th><th>Use</th></tr></thead><tbody><tr><td>Northwind Blue</td><td>#0b5cad</td><td>Links, accents</td></tr><tr><td>Night</td><td>#0a2540</td><td>Headers, text</td></tr><tr><td>White</td><td>#ffffff</td><td>Backgrounds</td></tr></tbody></table>
<p>Logo files are in the <strong>Brand assets &amp; logos</strong> media kit.</p>`,
  },
  {
    title: 'Over Northwind Mobility',
    slug: 'over-ons',
    language: 'nl',
    menu: false,
    tag: 'netherlands',
    body: `<h2>Wie we zijn</h2>
<p>${COMPANY.name} ontwerpt elektrische fietsen, bakfietsen en deelscooters voor mensen die zonder auto door de stad willen.</p>
<p>Vragen van journalisten? Mail <a href="mailto:${COMPANY.pressEmail}">${COMPANY.pressEmail}</a> of bel ${COMPANY.pressPhone}.</p>`,
  },
  {
    title: 'DRAFT: Crisis communication protocol',
    slug: 'crisis-protocol',
    language: 'en',
    menu: true,
    draft: true,
    body: `<h2>Internal — do not publish</h2><p>DRAFT page: escalation contacts and holding statements for incidents.</p>`,
  },
];

export function generatePages(rng: Rng, now: number, tags: readonly Tag[]): Page[] {
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.page, 5);
  const tagBySlug = new Map(tags.map((t) => [t.slug, t.id]));
  return PAGES.map((p, i) => {
    const tag = p.tag === undefined ? undefined : tagBySlug.get(p.tag);
    return {
      ...(p.draft ? hidden('draft') : visible()),
      id: ids.next(),
      pressroom_id: COMPANY.pressroomId,
      title: p.title,
      slug: p.slug,
      permalink: `/pages/${p.slug}`,
      body_html: p.body,
      position: i + 1,
      show_in_menu: p.menu,
      language: p.language,
      updated_at: iso(between(rng, now - 400 * DAY, now - 2 * HOUR)),
      _tagIds: tag === undefined ? [] : [tag],
    };
  });
}
