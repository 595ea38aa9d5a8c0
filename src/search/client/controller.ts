/**
 * The search page's controller (`_search/search.<hash>.js`, a classic script
 * so it also runs from `file://`): the form's state comes from and goes to
 * the address (`?q=…&type=…&tag=…&lang=…&year=…`), results show ten at a
 * time, built from DOM nodes (titles and metadata as text, only the excerpt's
 * marks as elements). The index loads on the first search, not with the page:
 * Pagefind over HTTP, the `_search/` script files from a folder.
 */
import type { ExcerptPart } from '../engine.ts';
import type { ResultView, SearchBackend } from './backend.ts';
import { offlineBackend } from './offline-backend.ts';
import { pagefindBackend } from './pagefind-backend.ts';

interface Config {
  lang: string;
  dateLocale: string;
  timeZone: string;
  pageSize: number;
  datedTypes: string[];
  strings: Record<'resultCountOne' | 'resultCount' | 'resultCountForOne' | 'resultCountFor' | 'noResults' | 'searching' | 'enterQuery' | 'unavailable', string>;
  labels: { type: Record<string, string>; language: Record<string, string> };
}

type State = 'loading' | 'unavailable' | 'idle' | 'searching' | 'done';

// The site's root as this script's own address writes it: `/` served, `../` in the archive.
const scriptSrc = document.currentScript?.getAttribute('src') ?? '/_search/search.js';
const siteRoot = scriptSrc.replace(/_search\/[^/]*$/, '');
const root = document.querySelector<HTMLElement>('[data-search]');
if (root) start(root);

function start(root: HTMLElement): void {
  const config = JSON.parse(root.dataset.config ?? '{}') as Config;
  const form = root.querySelector<HTMLFormElement>('[data-search-form]')!;
  const input = root.querySelector<HTMLInputElement>('[data-search-input]')!;
  const selects = [...root.querySelectorAll<HTMLSelectElement>('select[data-filter]')];
  const status = root.querySelector<HTMLElement>('[data-search-status]')!;
  const list = root.querySelector<HTMLOListElement>('[data-search-results]')!;
  const moreRow = root.querySelector<HTMLElement>('[data-search-more-row]')!;
  const more = root.querySelector<HTMLButtonElement>('[data-search-more]')!;
  const clear = root.querySelector<HTMLAnchorElement>('[data-search-clear]')!;
  const fill = (template: string, slots: Record<string, string | number>) =>
    template.replace(/\{(\w+)\}/g, (m, name: string) => (slots[name] === undefined ? m : String(slots[name])));
  const dateFormat = new Intl.DateTimeFormat(config.dateLocale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: config.timeZone });
  // State for tests and styles: idle | loading → searching → done (data-search-generation counts finished searches).
  const setState = (state: State, id?: number) => {
    root.dataset.searchState = state;
    if (id !== undefined) root.dataset.searchGeneration = String(id);
    if (state === 'searching' || state === 'loading') root.setAttribute('aria-busy', 'true');
    else root.removeAttribute('aria-busy');
  };

  const params = new URLSearchParams(location.search);
  clear.hidden = !selects.some((select) => params.get(select.name));
  input.value = params.get('q') ?? '';
  for (const select of selects) {
    const value = params.get(select.name);
    if (value) {
      if (![...select.options].some((o) => o.value === value)) select.add(new Option(value, value));
      select.value = value;
    }
  }

  let backend: Promise<SearchBackend | null> | undefined;
  /** The index, loaded once, on the first search. */
  const open = () => {
    backend ??= (async () => {
      try {
        const b = location.protocol === 'file:' ? await offlineBackend(siteRoot) : await pagefindBackend(siteRoot, config.datedTypes);
        pruneOptions(await b.filterValues());
        return b;
      } catch {
        status.textContent = config.strings.unavailable;
        setState('unavailable');
        return null;
      }
    })();
    return backend;
  };

  /** Only the filter values the index has (a build with no events offers no "Event"). */
  function pruneOptions(available: Record<string, Record<string, number>>): void {
    for (const select of selects) {
      const key = select.dataset.filter ?? '';
      const values = available[key] ?? {};
      for (const option of [...select.options]) {
        if (option.value && !(option.value in values) && option.value !== select.value) option.remove();
      }
      const known = new Set([...select.options].map((o) => o.value));
      const labels = (config.labels as Record<string, Record<string, string> | undefined>)[key];
      for (const value of Object.keys(values).filter((v) => !known.has(v)).sort()) select.add(new Option(labels?.[value] ?? value, value));
      if (key === 'year') {
        for (const o of [...select.options].slice(1).sort((a, b) => b.value.localeCompare(a.value))) select.add(o);
      }
    }
  }

  let generation = 0;
  let queue: Array<() => Promise<ResultView>> = [];

  async function run(): Promise<void> {
    const id = ++generation;
    const term = input.value.trim();
    const filters: Record<string, string> = {};
    const query = new URLSearchParams();
    if (term) query.set('q', term);
    for (const select of selects) {
      if (select.value) {
        filters[select.dataset.filter ?? select.name] = select.value;
        query.set(select.name, select.value);
      }
    }
    const search = query.toString();
    try {
      history.replaceState(null, '', search ? `?${search}` : location.pathname);
    } catch {
      // Some browsers refuse address changes on file:// pages; the search still runs.
    }
    clear.hidden = Object.keys(filters).length === 0;

    if (!term && Object.keys(filters).length === 0) {
      list.replaceChildren();
      moreRow.hidden = true;
      status.textContent = config.strings.enterQuery;
      root.dataset.searchCount = '0';
      setState('idle', id);
      return;
    }
    setState(backend ? 'searching' : 'loading');
    status.textContent = config.strings.searching;
    const b = await open();
    if (!b || id !== generation) return;
    setState('searching');
    const results = await b.search(term, filters);
    if (id !== generation) return;
    queue = results;
    list.replaceChildren();
    await showMore(id);
    if (id !== generation) return;
    const count = results.length;
    status.textContent =
      count === 0
        ? config.strings.noResults
        : term
          ? fill(count === 1 ? config.strings.resultCountForOne : config.strings.resultCountFor, { count, query: term })
          : fill(count === 1 ? config.strings.resultCountOne : config.strings.resultCount, { count });
    root.dataset.searchCount = String(count);
    setState('done', id);
  }

  async function showMore(id: number): Promise<void> {
    const next = queue.slice(0, config.pageSize);
    queue = queue.slice(config.pageSize);
    const views = await Promise.all(next.map((load) => load()));
    if (id !== generation) return;
    list.append(...views.map(renderResult));
    moreRow.hidden = queue.length === 0;
  }

  function renderResult(result: ResultView): HTMLLIElement {
    const li = document.createElement('li');
    const article = document.createElement('article');
    article.className = 'search-result';
    const language = result.lang;
    if (language && language !== config.lang) article.lang = language;
    article.dataset.lang = language;
    article.dataset.type = result.type;
    article.dataset.date = result.date ?? '';

    const info = document.createElement('p');
    info.className = 'search-result__meta';
    const type = result.type ? (config.labels.type[result.type] ?? result.type) : null;
    const date = result.date && !Number.isNaN(Date.parse(result.date)) ? dateFormat.format(new Date(result.date)) : null;
    const languageLabel = language && language !== config.lang ? (config.labels.language[language] ?? language) : null;
    const bits = [type, date, languageLabel].filter((b): b is string => !!b);
    bits.forEach((bit, i) => {
      if (i > 0) info.append(' · ');
      const span = document.createElement('span');
      span.textContent = bit;
      if (bit === languageLabel) span.lang = config.lang;
      if (bit === type) span.className = 'search-result__type';
      info.append(span);
    });

    const heading = document.createElement('h3');
    heading.className = 'search-result__title';
    const link = document.createElement('a');
    link.href = result.href;
    link.textContent = result.title;
    heading.append(link);

    const excerpt = document.createElement('p');
    excerpt.className = 'search-result__excerpt';
    excerpt.append(...excerptNodes(result.excerpt));

    article.append(heading, info, excerpt);
    li.append(article);
    return li;
  }

  function excerptNodes(parts: ExcerptPart[]): Node[] {
    return parts.map(([text, marked]) => {
      if (!marked) return document.createTextNode(text);
      const mark = document.createElement('mark');
      mark.textContent = text;
      return mark;
    });
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 200);
  });
  // Start loading the index as soon as the reader shows an intent to search.
  input.addEventListener('focus', () => void open(), { once: true });
  for (const select of selects) select.addEventListener('change', () => void run());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void run();
  });
  clear.addEventListener('click', (event) => {
    event.preventDefault();
    for (const select of selects) select.value = '';
    void run();
    input.focus();
  });
  more.addEventListener('click', async () => {
    const first = list.children.length;
    await showMore(generation);
    list.children[first]?.querySelector('a')?.focus();
  });
  void run();
}
