import type { JWK } from 'jose';
import type { ServerContext } from '../context.js';

/** One country cell as every cell sees it: where it answers and the public keys it signs with. */
export interface CellInfo {
  /** ISO 3166-1 alpha-2 code, upper case (`US`, `DE`). */
  country: string;
  base_url: string;
  trust_url: string;
  /** The cell's published JWKS (public keys only): what other cells verify its proofs with, without calling it. */
  jwks: { keys: JWK[] };
  /**
   * The cell's in-process context. The reference server runs every cell in one process; a real deployment would
   * ask the cell over the network. Use it only for aggregate, non-personal answers (counts per country); never to
   * read another cell's personal data.
   */
  context: ServerContext;
}

/** The cells of one deployment, first country first. */
export interface CellDirectory {
  list(): CellInfo[];
  get(country: string): CellInfo | undefined;
}

/** A directory of cells kept in a map; the server fills it as each cell starts listening. */
export class Cells implements CellDirectory {
  readonly #cells = new Map<string, CellInfo>();
  add(cell: CellInfo): void {
    this.#cells.set(cell.country, cell);
  }
  list(): CellInfo[] {
    return [...this.#cells.values()];
  }
  get(country: string): CellInfo | undefined {
    return this.#cells.get(country.toUpperCase());
  }
}
