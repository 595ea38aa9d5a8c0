/** `_search/engine.<hash>.js`: hands the search engine (src/search/engine.ts) to the page that loaded it. */
import type { DocMeta } from '../format.ts';
import { SearchIndex } from '../engine.ts';
import type { EngineModule } from './offline-backend.ts';

const engine: EngineModule = {
  open: (docs: DocMeta[], indexes: Record<string, unknown>) =>
    new SearchIndex(docs, indexes as ConstructorParameters<typeof SearchIndex>[1]),
};
window.pressroomSearchData?.('engine', 'engine', engine);
