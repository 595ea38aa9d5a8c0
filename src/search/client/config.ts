/** What the search page hands its controller in `data-config`. */
export interface Config {
  lang: string;
  dateLocale: string;
  timeZone: string;
  pageSize: number;
  datedTypes: string[];
  strings: Record<
    'resultCountOne' | 'resultCount' | 'resultCountForOne' | 'resultCountFor' | 'noResults' | 'searching' | 'enterQuery' | 'unavailable',
    string
  >;
  labels: { type: Record<string, string>; language: Record<string, string> };
}
