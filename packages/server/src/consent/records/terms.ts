// Step 1 of recording: resolve the flow's terms. The flow must be the account's (and the application's), active and,
// outside the hosted pages, capturable; the version governing a record is the one in force when it was captured.
import type { CollectionChannel } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { firstCountry } from '../../infra/cells/routing.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { findApplication } from '../../platform/application-store.js';
import { getActivatedVersions, type FlowVersionRecord } from '../../platform/flows/store.js';
import { capturabilityProblems } from './attestation.js';

/**
 * Channels whose decision the service walked through itself in its hosted pages (full page, popup, redirect, and
 * the iframe embed). The capturability rule (spec: "A flow is capturable only when its consent needs just a
 * decision ... and it declares a consent duration") is about consent taken in the organisation's own form; the
 * hosted pages run sign-in, verification and disclosures themselves, so any active flow can be recorded through them.
 */
export const HOSTED_DECISION_CHANNELS: ReadonlySet<CollectionChannel> = new Set<CollectionChannel>(['hosted', 'embedded']);

/**
 * Resolves which flow version governs a record, once per flow: the version whose activation is the latest at or
 * before `captured_at` (earlier versions keep governing earlier consents), or the active version for a record
 * captured before the flow was first activated.
 */
export class FlowTermsResolver {
  private flow: ReturnType<typeof getActivatedVersions> | null = null;
  private versions: FlowVersionRecord[] | undefined;
  private flowStatus: 'draft' | 'active' | undefined;
  private activeVersion: number | null = null;

  constructor(
    private readonly ctx: ServerContext,
    readonly accountId: string,
    readonly flowId: string,
    private readonly applicationId?: string,
    private readonly options: { requireCapturable?: boolean } = {},
  ) {}

  /**
   * Throws 404 when the flow is not the account's (or not the application's), 422 when it is a draft or (unless
   * `requireCapturable` is false: the hosted decision channels) not capturable.
   */
  check(): void {
    this.load();
  }

  /** The account's flow with its activated versions, read once (undefined when the account has no such flow). */
  private read(): ReturnType<typeof getActivatedVersions> {
    if (this.flow === null) this.flow = getActivatedVersions(this.ctx, this.accountId, this.flowId);
    return this.flow;
  }

  /**
   * Where the flow's application homes new personal data, before any check (undefined when the account has no such
   * flow): the request is sent to that cell first. The reads are the ones recording makes next.
   */
  home(): string | undefined {
    const flow = this.read();
    return flow && this.applicationHome(flow.application_id);
  }

  /** The home country of an application's new personal data (its `home_country`, else the first country). */
  applicationHome(id: string): string {
    return this.application(id)?.home_country ?? firstCountry(this.ctx);
  }

  private load(): FlowVersionRecord[] {
    if (this.versions) return this.versions;
    const flow = this.read();
    if (!flow || (this.applicationId && flow.application_id !== this.applicationId)) {
      throw new ApiError(404, 'No such flow.', 'flow_not_found', [{ path: 'flow_id', code: 'flow_not_found', message: 'No such flow.' }]);
    }
    if (flow.status !== 'active' || flow.active_version === null) {
      throw unprocessable('The flow is a draft; activate it before recording consent under it.', 'flow_not_active', [
        { path: 'flow_id', code: 'flow_not_active', message: 'the flow is a draft' },
      ]);
    }
    this.flowStatus = flow.status;
    this.activeVersion = flow.active_version;
    const { versions } = flow;
    const active = versions.find((v) => v.version === this.activeVersion);
    const problems = !active
      ? ['the flow has no active version']
      : this.options.requireCapturable === false
        ? []
        : capturabilityProblems(active.config);
    if (problems.length) {
      throw unprocessable(
        `The flow cannot take recorded consent: ${problems.join('; ')}.`,
        'flow_not_capturable',
        problems.map((message) => ({ path: 'flow_id', code: 'flow_not_capturable', message })),
      );
    }
    this.versions = versions;
    return versions;
  }

  /** The version governing a record captured at `capturedAt` (or the given version number). */
  versionFor(capturedAt: string, explicit?: number): FlowVersionRecord {
    const versions = this.load();
    if (explicit !== undefined) {
      const found = versions.find((v) => v.version === explicit);
      if (!found) {
        throw unprocessable(`Flow version ${explicit} was never published.`, 'flow_version_not_found', [
          { path: 'flow_version', code: 'flow_version_not_found', message: `version ${explicit} was never activated` },
        ]);
      }
      return found;
    }
    let chosen: FlowVersionRecord | undefined;
    for (const v of versions) if (v.activated_at! <= capturedAt) chosen = v;
    return chosen ?? versions.find((v) => v.version === this.activeVersion)!;
  }

  get status() {
    return this.flowStatus;
  }

  private applications = new Map<string, ReturnType<typeof findApplication>>();

  /** The application (looked up once per resolver). */
  application(id: string): ReturnType<typeof findApplication> {
    if (!this.applications.has(id)) this.applications.set(id, findApplication(this.ctx, id));
    return this.applications.get(id);
  }
}
