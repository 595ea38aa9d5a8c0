/**
 * The fictional company behind the demo press room, and the proper nouns its
 * prose draws on (products, partners, cities). Language-neutral names live
 * here; phrasing per language lives in `language/*.ts`.
 */
import type { Lang } from './language/pack.ts';

export const COMPANY = {
  name: 'Northwind Mobility',
  short: 'Northwind',
  legalName: 'Northwind Mobility B.V.',
  slug: 'northwind-mobility',
  pressroomId: 4201,
  domain: 'newsroom.northwind.example',
  newsroomUrl: 'https://newsroom.northwind.example',
  siteUrl: 'https://www.northwind.example',
  shortLinkBase: 'https://nwnd.example',
  pressEmail: 'press@northwind.example',
  pressPhone: '+31 20 794 1100',
  address: ['Wibautstraat 150', '1091 GR Amsterdam', 'The Netherlands'],
  twitter: 'northwindmob',
} as const;

export type Localized = Readonly<Record<Lang, string>>;

export interface Product {
  name: string;
  /** URL path on the company site. */
  path: string;
  kind: Localized;
  /** Tag slug this product's news usually carries. */
  tag: string;
  /** Vehicles can star in a release; the rest are named in passing. */
  vehicle: boolean;
}

export const PRODUCTS: readonly Product[] = [
  {
    name: 'Northwind Cargo One',
    path: '/cargo-one',
    tag: 'cargo-bikes',
    kind: { en: 'electric cargo bike', nl: 'elektrische bakfiets', de: 'E-Lastenrad' },
    vehicle: true,
  },
  {
    name: 'Northwind Volt S',
    path: '/volt-s',
    tag: 'electric-bikes',
    kind: { en: 'commuter e-bike', nl: 'elektrische forensenfiets', de: 'Pendler-E-Bike' },
    vehicle: true,
  },
  {
    name: 'Northwind Volt X',
    path: '/volt-x',
    tag: 'electric-bikes',
    kind: { en: 'speed pedelec', nl: 'speed pedelec', de: 'S-Pedelec' },
    vehicle: true,
  },
  {
    name: 'Northwind Fold 2',
    path: '/fold-2',
    tag: 'electric-bikes',
    kind: { en: 'folding e-bike', nl: 'elektrische vouwfiets', de: 'Falt-E-Bike' },
    vehicle: true,
  },
  {
    name: 'Northwind Pulse',
    path: '/pulse',
    tag: 'shared-mobility',
    kind: { en: 'shared e-scooter', nl: 'elektrische deelscooter', de: 'Sharing-Fahrzeug' },
    vehicle: true,
  },
  {
    name: 'Northwind Hub',
    path: '/hub',
    tag: 'charging-infrastructure',
    kind: { en: 'charging and parking hub', nl: 'laad- en parkeerhub', de: 'Lade- und Parkhub' },
    vehicle: false,
  },
  {
    name: 'Northwind Fleet OS',
    path: '/fleet-os',
    tag: 'fleet-services',
    kind: { en: 'fleet management platform', nl: 'platform voor vlootbeheer', de: 'Flottenmanagement-Plattform' },
    vehicle: false,
  },
  {
    name: 'Northwind Pass',
    path: '/pass',
    tag: 'subscriptions',
    kind: { en: 'mobility subscription', nl: 'mobiliteitsabonnement', de: 'Mobilitätsabo' },
    vehicle: false,
  },
  {
    name: 'Northwind Battery Loop',
    path: '/battery-loop',
    tag: 'sustainability',
    kind: { en: 'battery recycling programme', nl: 'recyclingprogramma voor accu’s', de: 'Akku-Recyclingprogramm' },
    vehicle: false,
  },
];

export interface Partner {
  name: string;
  url: string;
}

export const PARTNERS: readonly Partner[] = [
  'Contoso Energy',
  'Fabrikam Logistics',
  'Tailspin Transit',
  'Alpine Rail Group',
  'GreenGrid Utilities',
  'Stadtwerke Nordhafen',
  'Adatum Smart Cities',
  'Woodgrove Bank',
  'Litware Labs',
  'Polderstroom Energie',
  'Rheinland Mobil',
  'Harbour Insurance',
  'Wingtip Parcel',
  'Lakeshore Hotels',
  'Van Dijk Fietsen',
  'Kessler Fahrradwerke',
  'Metro Noord',
  'Zuidas Business Park',
  'Hanse Parcel Service',
  'Vélo Campus',
].map((name) => ({ name, url: `https://www.${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example` }));

export const INVESTORS: readonly string[] = [
  'Northsea Ventures',
  'Greenfield Capital',
  'Amstel Impact Fund',
  'Elbe Growth Partners',
  'Horizon Climate Fund',
  'Tulip Ventures',
];

export const AWARDS: readonly string[] = [
  'Urban Mobility Award',
  'Green Fleet Award',
  'European Cycling Innovation Prize',
  'Dutch Design Award for Mobility',
  'Sustainable Logistics Award',
  'Smart City Solutions Prize',
];

export const FAIRS: readonly string[] = [
  'VeloCity Expo',
  'Urban Mobility Days',
  'Mobility Forum Europe',
  'Smart Cities Summit',
  'Cycle Logistics Conference',
  'Micromobility Europe',
];

export interface City {
  name: Localized;
  /** Rails-style time zone name, as the API uses. */
  zone: string;
  venue: string;
}

export const CITIES: readonly City[] = [
  { name: { en: 'Amsterdam', nl: 'Amsterdam', de: 'Amsterdam' }, zone: 'Amsterdam', venue: 'RAI Amsterdam, Europaplein 24' },
  { name: { en: 'Rotterdam', nl: 'Rotterdam', de: 'Rotterdam' }, zone: 'Amsterdam', venue: 'Ahoy Rotterdam, Ahoyweg 10' },
  { name: { en: 'Utrecht', nl: 'Utrecht', de: 'Utrecht' }, zone: 'Amsterdam', venue: 'Jaarbeurs, Jaarbeursplein 6' },
  { name: { en: 'Eindhoven', nl: 'Eindhoven', de: 'Eindhoven' }, zone: 'Amsterdam', venue: 'Strijp-S, Torenallee 22' },
  { name: { en: 'The Hague', nl: 'Den Haag', de: 'Den Haag' }, zone: 'Amsterdam', venue: 'World Forum, Churchillplein 10' },
  { name: { en: 'Berlin', nl: 'Berlijn', de: 'Berlin' }, zone: 'Berlin', venue: 'Station Berlin, Luckenwalder Str. 4–6' },
  { name: { en: 'Munich', nl: 'München', de: 'München' }, zone: 'Berlin', venue: 'Messe München, Messegelände' },
  { name: { en: 'Hamburg', nl: 'Hamburg', de: 'Hamburg' }, zone: 'Berlin', venue: 'Hamburg Messe, Messeplatz 1' },
  { name: { en: 'Cologne', nl: 'Keulen', de: 'Köln' }, zone: 'Berlin', venue: 'Koelnmesse, Messeplatz 1' },
  { name: { en: 'Antwerp', nl: 'Antwerpen', de: 'Antwerpen' }, zone: 'Brussels', venue: 'Antwerp Expo, Jan van Rijswijcklaan 191' },
  { name: { en: 'Brussels', nl: 'Brussel', de: 'Brüssel' }, zone: 'Brussels', venue: 'Brussels Expo, Place de Belgique 1' },
  { name: { en: 'Copenhagen', nl: 'Kopenhagen', de: 'Kopenhagen' }, zone: 'Copenhagen', venue: 'Bella Center, Center Boulevard 5' },
  { name: { en: 'Vienna', nl: 'Wenen', de: 'Wien' }, zone: 'Vienna', venue: 'Messe Wien, Messeplatz 1' },
  { name: { en: 'Zurich', nl: 'Zürich', de: 'Zürich' }, zone: 'Zurich', venue: 'Messe Zürich, Wallisellenstrasse 49' },
  { name: { en: 'London', nl: 'Londen', de: 'London' }, zone: 'London', venue: 'ExCeL London, Royal Victoria Dock' },
];

/** Where releases in each language are datelined, most likely first. */
export const RELEASE_CITY_WEIGHTS: Readonly<Record<Lang, ReadonlyArray<readonly [string, number]>>> = {
  en: [
    ['Amsterdam', 60],
    ['Berlin', 10],
    ['London', 8],
    ['Copenhagen', 5],
    ['Munich', 5],
    ['Brussels', 4],
    ['Rotterdam', 4],
    ['Vienna', 4],
  ],
  nl: [
    ['Amsterdam', 60],
    ['Utrecht', 12],
    ['Rotterdam', 12],
    ['Eindhoven', 10],
    ['Antwerpen', 6],
  ],
  de: [
    ['Berlin', 45],
    ['München', 20],
    ['Hamburg', 15],
    ['Köln', 10],
    ['Wien', 5],
    ['Zürich', 5],
  ],
};

/** The executive team quoted in releases; names come from the seed, roles are fixed. */
export const EXECUTIVE_POSITIONS: readonly string[] = [
  'CEO',
  'Chief Product Officer',
  'Chief Technology Officer',
  'Head of Sustainability',
  'Managing Director Germany',
  'Chief Financial Officer',
];

export interface TagSeed {
  slug: string;
  name: string;
  description: string | null;
}

/** Tags, most important first: the world uses a prefix of this list whose length grows with scale. */
export const TAG_SEEDS: readonly TagSeed[] = [
  { slug: 'product-launches', name: 'Product launches', description: 'New vehicles, services and software from Northwind.' },
  { slug: 'electric-bikes', name: 'Electric bikes', description: 'News about the Volt and Fold e-bike ranges.' },
  { slug: 'cargo-bikes', name: 'Cargo bikes', description: 'Cargo One and everything that carries more than a backpack.' },
  { slug: 'partnerships', name: 'Partnerships', description: 'Cities, utilities and companies we work with.' },
  { slug: 'sustainability', name: 'Sustainability', description: 'Emissions, materials, recycling and our yearly sustainability report.' },
  { slug: 'financial-results', name: 'Financial results', description: 'Quarterly and annual results.' },
  { slug: 'charging-infrastructure', name: 'Charging infrastructure', description: 'Northwind Hubs: charging and secure parking.' },
  { slug: 'people-leadership', name: 'People & leadership', description: 'Appointments and the people behind Northwind.' },
  { slug: 'shared-mobility', name: 'Shared mobility', description: null },
  { slug: 'fleet-services', name: 'Fleet services', description: 'Fleet OS and leasing for businesses.' },
  { slug: 'awards', name: 'Awards', description: null },
  { slug: 'research', name: 'Research', description: 'Studies and surveys on how cities move.' },
  { slug: 'events', name: 'Events', description: 'Trade fairs, test-ride days and press briefings.' },
  { slug: 'investors', name: 'Investors', description: 'Funding rounds and investor relations.' },
  { slug: 'safety', name: 'Safety', description: 'Road safety, product safety and recalls.' },
  { slug: 'subscriptions', name: 'Subscriptions', description: 'Northwind Pass and other ways to ride without owning.' },
  { slug: 'last-mile-delivery', name: 'Last-mile delivery', description: null },
  { slug: 'netherlands', name: 'Netherlands', description: 'News from our home market.' },
  { slug: 'germany', name: 'Germany', description: 'Neuigkeiten aus Deutschland.' },
  { slug: 'batteries', name: 'Batteries', description: null },
  { slug: 'software-apps', name: 'Software & apps', description: 'The Northwind app and Fleet OS.' },
  { slug: 'design', name: 'Design', description: null },
  { slug: 'smart-cities', name: 'Smart cities', description: 'Open data and planning with municipalities.' },
  { slug: 'circular-economy', name: 'Circular economy', description: null },
  { slug: 'manufacturing', name: 'Manufacturing', description: 'Our assembly plant in Eindhoven.' },
  { slug: 'community', name: 'Community', description: null },
  { slug: 'careers', name: 'Careers', description: null },
  { slug: 'scandinavia', name: 'Scandinavia', description: null },
  { slug: 'belgium', name: 'Belgium', description: null },
  { slug: 'commuting', name: 'Commuting', description: 'Getting to work without a car.' },
  { slug: 'accessibility', name: 'Accessibility', description: null },
  { slug: 'trade-fairs', name: 'Trade fairs', description: null },
  { slug: 'customer-stories', name: 'Customer stories', description: 'How riders and businesses use Northwind.' },
  { slug: 'open-data', name: 'Open data', description: null },
  { slug: 'policy', name: 'Policy', description: 'Our positions on transport policy.' },
  { slug: 'road-safety', name: 'Road safety', description: null },
  { slug: 'supply-chain', name: 'Supply chain', description: null },
  { slug: 'energy', name: 'Energy', description: null },
  { slug: 'education', name: 'Education', description: null },
  { slug: 'sponsorship', name: 'Sponsorship', description: null },
  { slug: 'retail', name: 'Retail', description: 'Northwind stores and dealers.' },
  { slug: 'tourism', name: 'Tourism', description: null },
  { slug: 'maintenance', name: 'Maintenance', description: null },
  { slug: 'diversity', name: 'Diversity & inclusion', description: null },
  { slug: 'standards', name: 'Standards', description: null },
  { slug: 'climate', name: 'Climate', description: null },
  { slug: 'health', name: 'Health', description: null },
  { slug: 'data-privacy', name: 'Data & privacy', description: 'How we handle ride and account data.' },
  { slug: 'public-transport', name: 'Public transport', description: null },
  { slug: 'logistics', name: 'Logistics', description: null },
  { slug: 'austria', name: 'Austria', description: null },
  { slug: 'switzerland', name: 'Switzerland', description: null },
  { slug: 'mergers-acquisitions', name: 'Mergers & acquisitions', description: null },
  { slug: 'innovation', name: 'Innovation', description: null },
  { slug: 'cycling-infrastructure', name: 'Cycling infrastructure', description: null },
  { slug: 'corporate', name: 'Corporate', description: null },
];
