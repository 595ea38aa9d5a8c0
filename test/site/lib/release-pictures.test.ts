/**
 * What a release page says under a picture and names its file: the caption
 * apart from its credit and usage sentences, file names for people (never a
 * camera file name, unique within the release), and the body's "media kit"
 * mention made a link to the pictures, once, never inside a link.
 */
import { describe, expect, it } from 'vitest';
import { linkMediaKitMention } from '../../../src/lib/media-kit-mention.ts';
import { captionAndCredit, pictureNames } from '../../../src/lib/release-pictures.ts';

describe('captionAndCredit', () => {
  it('splits credit and usage sentences from the caption', () => {
    expect(captionAndCredit('Northwind Hub at dusk, Berlin. Photo: Jane Doe / Northwind Mobility. Free for editorial use.')).toEqual({
      caption: 'Northwind Hub at dusk, Berlin.',
      credit: 'Photo: Jane Doe / Northwind Mobility. Free for editorial use.',
    });
    expect(captionAndCredit('© Northwind Mobility')).toEqual({ caption: null, credit: '© Northwind Mobility' });
    expect(captionAndCredit('Het nieuwe servicepunt in Utrecht. Foto: J. de Vries.')).toEqual({
      caption: 'Het nieuwe servicepunt in Utrecht.',
      credit: 'Foto: J. de Vries.',
    });
  });

  it('keeps a caption without credit whole, and says nothing for no description', () => {
    expect(captionAndCredit('Rider on the Volt S in Ghent. The hub opens in May.')).toEqual({
      caption: 'Rider on the Volt S in Ghent. The hub opens in May.',
      credit: null,
    });
    expect(captionAndCredit('  ')).toEqual({ caption: null, credit: null });
    expect(captionAndCredit(null)).toEqual({ caption: null, credit: null });
  });
});

describe('pictureNames', () => {
  const release = { title: 'Northwind opens its hub in Berlin' };
  it('names files for people from the caption, else a title that is no file name, else the release and a number', () => {
    expect(
      pictureNames(release, [
        { title: 'DSC_9729.jpg', caption: 'Northwind Hub at dusk, Berlin.' },
        { title: 'Battery pack close-up', caption: null },
        { title: 'DSC_1234.jpg', caption: null },
        { title: 'northwind-hub.png', caption: null },
      ]),
    ).toEqual([
      'northwind-hub-at-dusk-berlin',
      'battery-pack-close-up',
      'northwind-opens-its-hub-in-berlin-3',
      'northwind-opens-its-hub-in-berlin-4',
    ]);
  });

  it('makes names unique and cuts long captions at a word', () => {
    const long = 'Commuters on the Northwind Volt S crossing the Oberbaum Bridge in the early morning rain, Berlin.';
    const names = pictureNames(release, [
      { title: '', caption: 'Northwind Hub, Berlin.' },
      { title: '', caption: 'Northwind Hub, Berlin.' },
      { title: '', caption: long },
    ]);
    expect(names.slice(0, 2)).toEqual(['northwind-hub-berlin', 'northwind-hub-berlin-2']);
    expect(names[2]).toBe('commuters-on-the-northwind-volt-s-crossing-the-oberbaum');
  });
});

describe('linkMediaKitMention', () => {
  it('links the first mention outside a link, and nothing else', () => {
    const html =
      '<p>See <a href="/x/">the media kit page</a>.</p><p>High-resolution images are available in the media kit on this newsroom. Another media kit.</p>';
    expect(linkMediaKitMention(html, '#images')).toBe(
      '<p>See <a href="/x/">the media kit page</a>.</p><p>High-resolution images are available in the <a href="#images">media kit</a> on this newsroom. Another media kit.</p>',
    );
    expect(linkMediaKitMention('<p>Beeldmateriaal staat in de mediakit.</p>', '/media-kits/')).toBe(
      '<p>Beeldmateriaal staat in de <a href="/media-kits/">mediakit</a>.</p>',
    );
    expect(linkMediaKitMention('<p><img alt="media kit" src="/a.jpg"> No mention.</p>', '#images')).toBe(
      '<p><img alt="media kit" src="/a.jpg"> No mention.</p>',
    );
  });
});
