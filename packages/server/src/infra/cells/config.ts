/** The cells `pnpm start` runs when `SVC_COUNTRIES` is not set. */
export const DEFAULT_COUNTRIES = ['US', 'DE'] as const;

/** An ISO 3166-1 alpha-2 code, upper case. */
export const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Reads a list of country codes such as `US,DE` (case-insensitive); throws a message naming what is wrong. */
export function parseCountries(text: string): string[] {
  const countries = text
    .split(',')
    .map((part) => part.trim().toUpperCase())
    .filter(Boolean);
  if (!countries.length) throw new Error('SVC_COUNTRIES names no country; give ISO codes such as US,DE.');
  for (const country of countries) {
    if (!COUNTRY_CODE.test(country)) throw new Error(`SVC_COUNTRIES: "${country}" is not an ISO 3166-1 alpha-2 code.`);
  }
  if (new Set(countries).size !== countries.length) throw new Error('SVC_COUNTRIES names a country twice.');
  return countries;
}
