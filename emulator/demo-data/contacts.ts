/** PR contacts: four press officers with phone, e-mail, social handles and (three of four) avatars. */
import type { PrContact } from '../model/types.ts';
import { AVATAR_RENDITIONS, type AssetRegistry } from './assets.ts';
import { COMPANY } from './company.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import type { Lang } from './language/pack.ts';
import type { People } from './people.ts';
import { hash32, type Rng } from '../model/random.ts';
import { slugify } from './slug.ts';

const ROLES: ReadonlyArray<{ title: string; lang: Lang; phone: string; mobile: string; avatar: boolean; skype: boolean }> = [
  { title: 'Head of Communications', lang: 'nl', phone: '+31 20 794 11', mobile: '+31 6 ', avatar: true, skype: true },
  { title: 'Press Officer Benelux', lang: 'nl', phone: '+31 20 794 11', mobile: '+31 6 ', avatar: true, skype: false },
  { title: 'Pressesprecherin DACH', lang: 'de', phone: '+49 30 5557 ', mobile: '+49 151 ', avatar: true, skype: false },
  { title: 'Communications Manager, Product', lang: 'en', phone: '+31 20 794 11', mobile: '+31 6 ', avatar: false, skype: false },
];

export function generateContacts(rng: Rng, seed: number, people: People, assets: AssetRegistry): PrContact[] {
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.prContact, 3);
  return ROLES.map((role, i) => {
    const id = ids.next();
    const r = rng.fork('contact', id);
    const person = people.byLang[role.lang][20 + i] ?? r.pick(people.pool);
    const handle = slugify(`${person.firstName}_${person.lastName}`).replace(/-/g, '_').slice(0, 12);
    const email = `${slugify(person.firstName)}.${slugify(person.lastName)}@northwind.example`.replace(/-/g, '');
    const phone = `${role.phone}${String(r.int(10, 99))}`;
    const mobile = `${role.mobile}${r.int(1000, 9999)} ${r.int(1000, 9999)}`;
    const twitter = i < 3 ? handle : null;
    const avatar = role.avatar
      ? assets.image(
          `/media/pr_contacts/${id}/avatar`,
          {
            seed: hash32(seed, 'avatar', id),
            label: person.name,
            format: 'jpeg',
            transparent: false,
            width: r.int(100, 150) * 8,
            height: r.int(125, 190) * 8,
          },
          AVATAR_RENDITIONS,
        )
      : null;
    return {
      id,
      pressroom_id: COMPANY.pressroomId,
      name: person.name,
      job_title: role.title,
      email,
      phone,
      contact_info: [role.title, `T ${phone}`, `M ${mobile}`, `E ${email}`].join('\n'),
      urls: {
        twitter: twitter ? `https://twitter.com/${twitter}` : null,
        skype: role.skype ? `skype:${handle}?call` : null,
        linkedin: `https://www.linkedin.com/in/${slugify(person.name)}`,
        avatar: avatar ? avatar.original.url : null,
      },
      usernames: { twitter, skype: role.skype ? handle : null },
      avatar,
      position: i + 1,
    };
  });
}
