import { z } from 'zod/mini';

/** An ISO 3166-1 alpha-2 country code, upper case: a home country of the service's cells. */
export const countryCode = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as DE'));

/** One country cell: where its API and its hosted pages answer. */
export const countryCell = z.object({ country: countryCode, base_url: z.string(), trust_url: z.string() });
export type CountryCell = z.infer<typeof countryCell>;

/** `GET /api/v1/countries`: the country of the cell that answered and every cell of the service. */
export const countriesResponse = z.object({ country: countryCode, countries: z.array(countryCell) });
export type CountriesResponse = z.infer<typeof countriesResponse>;
