/** The search form's parts, its state to and from the address, and the filter values it offers. */
import type { Config } from './config.ts';

export interface SearchForm {
  form: HTMLFormElement;
  input: HTMLInputElement;
  selects: HTMLSelectElement[];
  status: HTMLElement;
  list: HTMLOListElement;
  moreRow: HTMLElement;
  more: HTMLButtonElement;
  clear: HTMLAnchorElement;
}

export function findForm(root: HTMLElement): SearchForm {
  return {
    form: root.querySelector<HTMLFormElement>('[data-search-form]')!,
    input: root.querySelector<HTMLInputElement>('[data-search-input]')!,
    selects: [...root.querySelectorAll<HTMLSelectElement>('select[data-filter]')],
    status: root.querySelector<HTMLElement>('[data-search-status]')!,
    list: root.querySelector<HTMLOListElement>('[data-search-results]')!,
    moreRow: root.querySelector<HTMLElement>('[data-search-more-row]')!,
    more: root.querySelector<HTMLButtonElement>('[data-search-more]')!,
    clear: root.querySelector<HTMLAnchorElement>('[data-search-clear]')!,
  };
}

/** Fills the form from `?q=…&type=…`; a value the page does not offer yet is added as an option. */
export function restoreFromAddress({ input, selects, clear }: SearchForm, params: URLSearchParams): void {
  clear.hidden = !selects.some((select) => params.get(select.name));
  input.value = params.get('q') ?? '';
  for (const select of selects) {
    const value = params.get(select.name);
    if (value) {
      if (![...select.options].some((o) => o.value === value)) select.add(new Option(value, value));
      select.value = value;
    }
  }
}

/** The search the form asks for, written to the address (where the browser allows it). */
export function readForm({ input, selects, clear }: SearchForm): { term: string; filters: Record<string, string> } {
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
  return { term, filters };
}

/** Only the filter values the index has (a build with no events offers no "Event"). */
export function pruneOptions(selects: HTMLSelectElement[], available: Record<string, Record<string, number>>, config: Config): void {
  for (const select of selects) {
    const key = select.dataset.filter ?? '';
    const values = available[key] ?? {};
    for (const option of [...select.options]) {
      if (option.value && !(option.value in values) && option.value !== select.value) option.remove();
    }
    const known = new Set([...select.options].map((o) => o.value));
    const labels = (config.labels as Record<string, Record<string, string> | undefined>)[key];
    for (const value of Object.keys(values)
      .filter((v) => !known.has(v))
      .sort())
      select.add(new Option(labels?.[value] ?? value, value));
    if (key === 'year') {
      for (const o of [...select.options].slice(1).sort((a, b) => b.value.localeCompare(a.value))) select.add(o);
    }
  }
}

/** Searches as the reader types (after a pause), changes a filter, submits or clears; more results on demand. */
export function wireForm(ui: SearchForm, run: () => Promise<void>, open: () => unknown, showMore: () => Promise<void>): void {
  const { form, input, selects, clear, more, list } = ui;
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
    await showMore();
    list.children[first]?.querySelector('a')?.focus();
  });
}
