/** One search result as DOM nodes: titles and metadata as text, only the excerpt's marks as elements. */
import type { ExcerptPart } from '../engine.ts';
import type { ResultView } from './backend.ts';
import type { Config } from './config.ts';

function excerptNodes(parts: ExcerptPart[]): Node[] {
  return parts.map(([text, marked]) => {
    if (!marked) return document.createTextNode(text);
    const mark = document.createElement('mark');
    mark.textContent = text;
    return mark;
  });
}

/** Type · date · language (the language only when it is not the page's). */
function metaLine(result: ResultView, config: Config, dateFormat: Intl.DateTimeFormat): HTMLParagraphElement {
  const language = result.lang;
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
  return info;
}

export function renderResult(result: ResultView, config: Config, dateFormat: Intl.DateTimeFormat): HTMLLIElement {
  const li = document.createElement('li');
  const article = document.createElement('article');
  article.className = 'search-result';
  const language = result.lang;
  if (language && language !== config.lang) article.lang = language;
  article.dataset.lang = language;
  article.dataset.type = result.type;
  article.dataset.date = result.date ?? '';

  const info = metaLine(result, config, dateFormat);

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
