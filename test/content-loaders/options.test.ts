/**
 * The package's options and errors: a strict schema naming the option at fault,
 * typed API errors (url, endpoint, status, kind) whose advice names settings the
 * caller's way, and upstream HTML sanitised in the entries unless `rawHtml` says otherwise.
 */
import { describe, expect, it } from 'vitest';
import {
  LoaderOptionsError,
  NewsroomApiError,
  DataIssues,
  createLoaderRuntime,
  createNewsroomClient,
  parseLoaderOptions,
  sanitizeHtmlFields,
} from '@pressroom-static/content-loaders';
import { readBody, type StoredBody } from '../../content-loaders/html/body-files.ts';
import { ENVIRONMENT_SETTING_NAMES } from '../../src/config/loader-options.ts';
import { useEmulator } from '../helpers/emulator.ts';
import { HOSTILE } from '../helpers/hostile-html.ts';
import { loadAll } from '../helpers/loader-context.ts';

const refusal = (options: unknown): LoaderOptionsError => {
  try {
    parseLoaderOptions(options as never);
  } catch (error) {
    if (error instanceof LoaderOptionsError) return error;
    throw error;
  }
  throw new Error('accepted');
};

describe('options', () => {
  it('fills in the defaults and keeps what was given', () => {
    const options = parseLoaderOptions({ apiUrl: 'https://api.example.com', pressroomId: 4201 });
    expect(options).toMatchObject({
      apiUrl: 'https://api.example.com',
      pressroomId: '4201',
      concurrency: 8,
      strict: false,
      rawHtml: false,
    });
    expect(options.settingNames.apiUrl).toBe('the apiUrl option');
    expect(parseLoaderOptions({ snapshot: '/some/snapshot' }).snapshot).toBe('/some/snapshot');
  });

  it('refuses an unknown or wrong option with one line naming it', () => {
    expect(refusal({ apiUrl: 'https://api.example.com', pressroomId: 1, apiURL: 'x' })).toMatchObject({
      option: 'apiURL',
      message: 'pressroom loaders: apiURL is not an option of @pressroom-static/content-loaders',
    });
    expect(refusal({ pressroomId: 1 }).option).toBe('apiUrl');
    expect(refusal({ apiUrl: 'https://api.example.com' }).option).toBe('pressroomId');
    expect(refusal({ apiUrl: 'ftp://api.example.com', pressroomId: 1 }).option).toBe('apiUrl');
    expect(refusal({ apiUrl: 'https://api.example.com', pressroomId: 1, concurrency: 0 }).option).toBe('concurrency');
    expect(refusal({ apiUrl: 'https://api.example.com', pressroomId: 1, apiKey: 'two words' }).option).toBe('apiKey');
    expect(refusal({ apiUrl: 'https://api.example.com', pressroomId: 1, logger: console.log }).option).toBe('logger');
  });

  it('keeps the API key out of what a runtime prints', async () => {
    const runtime = await createLoaderRuntime({ apiUrl: 'https://api.example.com', pressroomId: 1, apiKey: 'secret-key-1234' });
    expect(runtime.options.apiKey).toBe('secret-key-1234');
    expect(JSON.stringify(runtime.options)).not.toContain('secret-key-1234');
  });

  it('names an unreadable snapshot folder as the snapshot option', async () => {
    await expect(createLoaderRuntime({ snapshot: '/no/such/snapshot' })).rejects.toMatchObject({
      name: 'LoaderOptionsError',
      option: 'snapshot',
    });
  });
});

describe('typed errors', () => {
  const api = useEmulator();

  it('carry url, endpoint, status and kind; the advice names the options, or the settings the caller names', async () => {
    const failure = (error: unknown) => error as NewsroomApiError;
    const plain = failure(
      await createNewsroomClient({ baseUrl: api().url, pressroomId: 'no-such.pr.example' })
        .get('')
        .catch((e: unknown) => e),
    );
    expect(plain).toBeInstanceOf(NewsroomApiError);
    expect(plain).toMatchObject({
      status: 404,
      kind: 'http',
      endpoint: '/v1/pressrooms/no-such.pr.example',
      url: `${api().url}/v1/pressrooms/no-such.pr.example`,
      attempts: 1,
    });
    expect(plain.message).toContain('or the pressroomId option (numeric id or domain) or the apiUrl option is wrong');

    const named = createNewsroomClient({ baseUrl: api().url, pressroomId: 'no-such.pr.example', settingNames: ENVIRONMENT_SETTING_NAMES });
    const site = failure(await named.list('press_releases').catch((e: unknown) => e));
    expect(site.message).toContain('or PRESSROOM_ID (numeric id or domain) or PRESSROOM_API_URL is wrong');
    expect(site.advice).not.toMatch(/option/);
  });

  it('strict mode names the setting the caller gave', () => {
    const warning = {
      collection: 'tags',
      endpoint: '/v1/x',
      itemId: '1',
      field: 'name',
      value: 1,
      kind: 'field-dropped',
      reason: 'not text',
    } as const;
    expect(() => new DataIssues({ strict: true }).warn(warning as never)).toThrow(/the strict option is on/);
    expect(() => new DataIssues({ strict: true, strictName: 'PRESSROOM_STRICT' }).warn(warning as never)).toThrow(/PRESSROOM_STRICT is on/);
  });
});

describe('upstream HTML', () => {
  const hostile = HOSTILE.join('\n');
  const api = useEmulator({ frozenClock: true, scale: 8 });
  /** The emulator's answers with hostile HTML in the first release of every release list. */
  const hostileFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!/\/press_releases\?/.test(url) || response.status !== 200) return response;
    const body = (await response.json()) as { data: Array<{ body_html: string }> };
    if (body.data[0]) body.data[0].body_html = `<p>Before.</p>${hostile}<p>After.</p>`;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };

  it('is sanitised in every HTML field, at any depth, keeping structure, images and dates', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const entry = sanitizeHtmlFields({
      title: '<b>kept as sent</b>',
      body_html: `<h1 id="x" class="y" style="color:red">Head</h1><div onclick="x()"><p>a &amp; b</p><img src="https://cdn.example.com/a.jpg" onerror="x()" alt=""></div><script>x()</script><a href="javascript:x()">j</a>`,
      updates: [{ posted_at: at, body_html: '<iframe src="https://evil.example"></iframe><p>update</p>' }],
    });
    expect(entry).toEqual({
      title: '<b>kept as sent</b>',
      body_html: '<h1>Head</h1><div><p>a &amp; b</p><img src="https://cdn.example.com/a.jpg" alt="" /></div><a>j</a>',
      updates: [{ posted_at: at, body_html: '<p>update</p>' }],
    });
  });

  it('reaches the collections sanitised by default, as sent only with rawHtml', async () => {
    const base = { apiUrl: api().url, pressroomId: api().pressroom.id, fetch: hostileFetch };
    const bodies = async (rawHtml: boolean) => {
      const run = await loadAll(await createLoaderRuntime({ ...base, rawHtml }), {}, ['pressReleases']);
      const stored = [...run.stores.pressReleases.map.values()].map((e) => readBody((e.data as { body: StoredBody }).body));
      return (await Promise.all(stored)).join('\n');
    };
    const [safe, raw] = [await bodies(false), await bodies(true)];
    expect(raw).toMatch(/<script|onerror=|javascript:/i);
    expect(safe).toContain('<p>Before.</p>');
    expect(safe).not.toMatch(/<script|onerror=|onclick=|javascript:|<iframe|<svg|<object|<embed/i);
  });
});
