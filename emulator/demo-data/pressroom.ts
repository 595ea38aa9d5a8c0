/** The press room itself: Northwind Mobility's newsroom, its about text, boilerplate, contact block, links, logo and design. */
import type { Pressroom } from '../model/types.ts';
import { AssetRegistry, LOGO_RENDITIONS } from './assets.ts';
import { COMPANY } from './company.ts';
import { DAY, HOUR, YEAR, floorTo, iso } from './dates.ts';
import { hash32, type Rng } from '../model/random.ts';

export function generatePressroom(rng: Rng, seed: number, now: number, assets: AssetRegistry): Pressroom {
  const logo = assets.image(
    `/media/pressrooms/${COMPANY.pressroomId}/logo`,
    { seed: hash32(seed, 'logo'), label: COMPANY.name, format: 'png', transparent: true, width: 1200, height: 360, design: 'logo' },
    LOGO_RENDITIONS,
  );
  const founded = 2016 + rng.int(0, 2);
  return {
    id: COMPANY.pressroomId,
    slug: COMPANY.slug,
    permalink: COMPANY.newsroomUrl,
    domain: COMPANY.domain,
    name: COMPANY.name,
    description:
      `<p><strong>${COMPANY.name}</strong> makes electric bikes, cargo bikes and shared e-scooters for people who want to ` +
      `move through cities without a car. Founded in Amsterdam in ${founded}, the company runs a network of Northwind Hubs ` +
      `for charging and secure parking in the Netherlands, Belgium, Germany and Scandinavia.</p>\n` +
      `<p>This newsroom is the official source for news, images and media kits. Journalists can ` +
      `<a href="${COMPANY.siteUrl}/press">request interviews and test bikes</a> or write to ` +
      `<a href="mailto:${COMPANY.pressEmail}">${COMPANY.pressEmail}</a>.</p>`,
    boilerplate_html:
      `<p><strong>About ${COMPANY.name}</strong><br>${COMPANY.name} (Amsterdam, ${founded}) designs electric vehicles and ` +
      `services for everyday city travel: the Volt and Fold e-bikes, the Cargo One cargo bike, Pulse shared e-scooters, ` +
      `Northwind Hubs and the Fleet OS platform for businesses. The company employs around ${rng.int(28, 45) * 10} people and ` +
      `assembles its vehicles in Eindhoven. More at <a href="${COMPANY.siteUrl}">northwind.example</a>.</p>`,
    language: 'en',
    languages: ['en', 'nl', 'de'],
    timezone: 'Amsterdam',
    contact_info: [COMPANY.legalName, 'Press office', ...COMPANY.address, '', `T ${COMPANY.pressPhone}`, `E ${COMPANY.pressEmail}`].join(
      '\n',
    ),
    urls: {
      homepage: COMPANY.siteUrl,
      blog: `${COMPANY.siteUrl}/blog`,
      contact: `${COMPANY.siteUrl}/contact`,
      twitter: `https://twitter.com/${COMPANY.twitter}`,
      facebook: 'https://www.facebook.com/northwindmobility',
      linkedin: 'https://www.linkedin.com/company/northwind-mobility',
      instagram: 'https://www.instagram.com/northwindmobility',
      youtube: 'https://www.youtube.com/@northwindmobility',
      pinterest: null,
      // Where the hosted newsroom takes e-mail sign-ups (subscribe_enabled below).
      subscribe: `${COMPANY.newsroomUrl}/subscribe`,
    },
    logo: {
      small_url: logo.small.url,
      square_url: logo.square.url,
      original_url: logo.original.url,
      width: Number(logo.original.width),
      height: Number(logo.original.height),
    },
    design: { link_color: '#0b5cad', background_color: '#ffffff', header_color: '#0a2540', layout: 'default' },
    noindex: false,
    nofollow: false,
    subscribe_enabled: true,
    login_enabled: false,
    show_presskit: true,
    tag_tree_enabled: false,
    parent_pressroom_id: null,
    child_pressroom_ids: [],
    created_at: iso(floorTo(now - 6 * YEAR - rng.int(0, 200) * DAY, DAY) + 9 * HOUR + rng.int(0, 3599) * 1000),
  };
}
