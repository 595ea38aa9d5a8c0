/**
 * The search page's controller (`_search/search.<hash>.js`, a classic script
 * so it also runs from `file://`): the form's state comes from and goes to
 * the address (`?q=…&type=…&tag=…&lang=…&year=…`), results show ten at a
 * time, built from DOM nodes (titles and metadata as text, only the excerpt's
 * marks as elements). The index loads on the first search, not with the page:
 * Pagefind over HTTP, the `_search/` script files from a folder.
 */
import type { ResultView, SearchBackend } from './backend.ts';
import type { Config } from './config.ts';
import { findForm, pruneOptions, readForm, restoreFromAddress, wireForm } from './form.ts';
import { offlineBackend } from './offline-backend.ts';
import { pagefindBackend } from './pagefind-backend.ts';
import { renderResult } from './result-view.ts';

type State = 'loading' | 'unavailable' | 'idle' | 'searching' | 'done';

// The site's root as this script's own address writes it: `/` served, `../` in the archive.
const scriptSrc = document.currentScript?.getAttribute('src') ?? '/_search/search.js';
const siteRoot = scriptSrc.replace(/_search\/[^/]*$/, '');
const root = document.querySelector<HTMLElement>('[data-search]');
if (root) start(root);

function fill(template: string, slots: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (slots[name] === undefined ? m : String(slots[name])));
}

/** "3 results for …", "1 result", "No results". */
function countLine(count: number, term: string, strings: Config['strings']): string {
  return count === 0
    ? strings.noResults
    : term
      ? fill(count === 1 ? strings.resultCountForOne : strings.resultCountFor, { count, query: term })
      : fill(count === 1 ? strings.resultCountOne : strings.resultCount, { count });
}

function start(root: HTMLElement): void {
  const config = JSON.parse(root.dataset.config ?? '{}') as Config;
  const ui = findForm(root);
  const { selects, status, list, moreRow } = ui;
  const dateFormat = new Intl.DateTimeFormat(config.dateLocale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: config.timeZone,
  });
  // State for tests and styles: idle | loading → searching → done (data-search-generation counts finished searches).
  const setState = (state: State, id?: number) => {
    root.dataset.searchState = state;
    if (id !== undefined) root.dataset.searchGeneration = String(id);
    if (state === 'searching' || state === 'loading') root.setAttribute('aria-busy', 'true');
    else root.removeAttribute('aria-busy');
  };
  restoreFromAddress(ui, new URLSearchParams(location.search));

  let backend: Promise<SearchBackend | null> | undefined;
  /** The index, loaded once, on the first search. */
  const open = () => {
    backend ??= (async () => {
      try {
        const b = location.protocol === 'file:' ? await offlineBackend(siteRoot) : await pagefindBackend(siteRoot, config.datedTypes);
        pruneOptions(selects, await b.filterValues(), config);
        return b;
      } catch {
        status.textContent = config.strings.unavailable;
        setState('unavailable');
        return null;
      }
    })();
    return backend;
  };

  let generation = 0;
  let queue: Array<() => Promise<ResultView>> = [];

  async function run(): Promise<void> {
    const id = ++generation;
    const { term, filters } = readForm(ui);
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
    status.textContent = countLine(results.length, term, config.strings);
    root.dataset.searchCount = String(results.length);
    setState('done', id);
  }

  async function showMore(id: number): Promise<void> {
    const next = queue.slice(0, config.pageSize);
    queue = queue.slice(config.pageSize);
    const views = await Promise.all(next.map((load) => load()));
    if (id !== generation) return;
    list.append(...views.map((view) => renderResult(view, config, dateFormat)));
    moreRow.hidden = queue.length === 0;
  }

  wireForm(ui, run, open, () => showMore(generation));
  void run();
}
