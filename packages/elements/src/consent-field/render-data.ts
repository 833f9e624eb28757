// What the consent field shows: the answer of `GET /api/v1/flows/{id}/render?locale=` (publishable key, allowed
// origin), checked for the shape the field relies on before anything of it is rendered.
import { askService, CaptureError, type FetchLike } from '@svc/capture';
// Types only: the field checks the answer itself (isRenderData), so no schema code reaches the bundles.
import type { FlowRender, PurposeBasis, RenderPurpose } from '@svc/schemas';

export type { PurposeBasis, RenderPurpose };

/**
 * The render endpoint's answer (`FlowRender` of `@svc/schemas`): the flow's presentation in one locale plus a signed
 * render proof. `notice_hash` goes back as the capture's `notice_hash`, `render_proof` in its header.
 */
export type RenderData = FlowRender;

/** How a row is shown: a consent checkbox, a right-to-object checkbox, or notice text. */
export type RowKind = 'consent' | 'object' | 'notice';

/**
 * How a purpose is presented, by the spec's attestation table: consent (explicit or informed) is a box never ticked
 * in advance; legitimate interest with a right to object (`opt_out`) is a box ticked by default that the person
 * unticks to object; every other purpose (contract, legal obligation, legitimate interest without that right) is
 * text only.
 */
export function rowKind(purpose: Pick<RenderPurpose, 'basis' | 'mechanism'>): RowKind {
  if (purpose.basis === 'consent') return 'consent';
  if (purpose.basis === 'legitimate_interest' && purpose.mechanism === 'opt_out') return 'object';
  return 'notice';
}

const BASES = ['consent', 'legitimate_interest', 'contract', 'legal_obligation'];
const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown) => v == null || isStr(v);

function isPurpose(value: unknown): value is RenderPurpose {
  const p = value as Partial<RenderPurpose> | null;
  return (
    !!p &&
    typeof p === 'object' &&
    isStr(p.key) &&
    p.key !== '' &&
    isStr(p.label) &&
    optStr(p.description) &&
    BASES.includes(p.basis!) &&
    optStr(p.mechanism)
  );
}

/**
 * Whether `value` has the render answer's shape, as far as the field uses it: fields it does without (a purpose's
 * `mechanism` or `description`, `render_proof_expires_at`) may be missing, as from an older service.
 */
export function isRenderData(value: unknown): value is RenderData {
  const d = value as Partial<RenderData> | null;
  return (
    !!d &&
    typeof d === 'object' &&
    isStr(d.flow_id) &&
    isStr(d.title) &&
    optStr(d.description) &&
    optStr(d.policy_url) &&
    Array.isArray(d.purposes) &&
    d.purposes.every(isPurpose) &&
    isStr(d.notice_hash) &&
    isStr(d.render_proof) &&
    d.render_proof !== ''
  );
}

/** Where and how the render answer is fetched. */
export interface RenderRequest {
  baseUrl: string;
  flowId: string;
  publishableKey: string;
  locale?: string | undefined;
  timeoutMs: number;
  fetch?: FetchLike | undefined;
  signal?: AbortSignal | undefined;
}

/** The render endpoint's URL for a flow and locale. */
export function renderUrl(baseUrl: string, flowId: string, locale: string | undefined): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/api/v1/flows/${encodeURIComponent(flowId)}/render`);
  if (locale) url.searchParams.set('locale', locale);
  return url.href;
}

/**
 * Fetches the render answer, or rejects with a `CaptureError` of code `network`, `timeout`, `http_<status>` (with the
 * server's error body) or `invalid_response`; an abort through `signal` rejects with the signal's reason.
 */
export async function fetchRenderData(request: RenderRequest): Promise<RenderData> {
  // No cookies (askService sends none): the publishable key and the page's origin are what the service checks.
  const body = await askService(
    renderUrl(request.baseUrl, request.flowId, request.locale),
    {
      headers: { accept: 'application/json', 'x-publishable-key': request.publishableKey },
    },
    request,
  );
  // Accept the answer bare or in an envelope, so a `{render: ...}` wrapper on the server side changes nothing here.
  const data = isRenderData(body) ? body : (body as { render?: unknown } | undefined)?.render;
  if (!isRenderData(data)) throw new CaptureError('invalid_response', 'The service answered without the flow’s presentation.');
  return data;
}

/**
 * When a render answer's proof expires (epoch ms): its `render_proof_expires_at`, else the JWS payload's `exp`, or
 * undefined when neither can be read.
 */
export function proofExpiry(
  data: Pick<RenderData, 'render_proof'> & Partial<Pick<RenderData, 'render_proof_expires_at'>>,
): number | undefined {
  const stated = Date.parse(data.render_proof_expires_at ?? '');
  if (Number.isFinite(stated)) return stated;
  try {
    // base64url to base64; atob accepts it without padding. A missing payload or one that is not JSON throws.
    const { exp } = JSON.parse(atob(data.render_proof.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return Number.isFinite(exp) ? (exp as number) * 1000 : undefined;
  } catch {
    return undefined;
  }
}
