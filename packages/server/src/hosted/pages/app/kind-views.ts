// The view of each kind, by `kind`: a new kind adds its view here, beside its server module.
import type { PageParts } from '../page-data.js';
import { ApprovalView } from './approval-view.js';
import { ConsentView } from './consent-view.js';
import { SignatureView } from './signature-view.js';
import type { KindView, PageHost } from './kind-view.js';

const VIEWS: { [K in keyof PageParts]: (host: PageHost, part: PageParts[K]) => KindView } = {
  consent: (host, part) => new ConsentView(host, part),
  approval: (host, part) => new ApprovalView(host, part),
  signature_request: (host, part) => new SignatureView(host, part),
};

/** The view of the page's kind, over its part of the page data; undefined when the part is missing. */
export function viewOf<K extends keyof PageParts>(host: PageHost, kind: K): KindView | undefined {
  const part = host.data[kind] as PageParts[K] | null;
  return part ? VIEWS[kind](host, part) : undefined;
}
