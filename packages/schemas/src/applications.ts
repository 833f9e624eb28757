import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';
import { countryCode } from './countries.js';

/** Where an application's data lives: `dev` for development applications, `us` or `eu` for production ones. */
export const applicationRegion = z.enum(['dev', 'us', 'eu']);

/** The Application summary of the spec, plus `region`, `created_at` and `browser_commit_enabled`. */
export const application = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  application_type: z.string(),
  environment: z.enum(['development', 'production']),
  visibility: z.string(),
  region: applicationRegion,
  browser_commit_enabled: z.boolean(),
  /** Where the personal data the application collects is homed when a capture or record names no subject country. */
  home_country: countryCode,
  /** The application's publishable keys (public by design: they sit in page source), revoked ones left out. */
  publishable_keys: z.array(z.object({ key: z.string(), created_at: dateTime() })),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type Application = z.infer<typeof application>;

const name = z.string().check(z.minLength(1), z.maxLength(100));
const applicationType = z.enum(['web', 'mobile', 'server']);
const visibility = z.enum(['private', 'public']);

/**
 * `POST /api/v1/applications`. `environment` defaults to development (`tp_dev_`); a production application is
 * homed by `region` (`us` default, or `eu`), which development applications must not set.
 */
export const createApplicationRequest = z.strictObject({
  application: z
    .strictObject({
      name,
      environment: z._default(z.enum(['development', 'production']), 'development'),
      region: z.optional(z.enum(['us', 'eu'])),
      application_type: z._default(applicationType, 'web'),
      visibility: z._default(visibility, 'private'),
      browser_commit_enabled: z._default(z.boolean(), false),
      /** One of the service's country cells (`GET /api/v1/countries`); default the first. */
      home_country: z.optional(countryCode),
    })
    .check(
      z.refine((a) => !(a.environment === 'development' && a.region), {
        message: 'region applies to production applications only',
        path: ['region'],
      }),
    ),
});
export type CreateApplicationRequest = z.input<typeof createApplicationRequest>;

/** `PATCH /api/v1/applications/{id}`: environment and region are part of the id and cannot change. */
export const updateApplicationRequest = z.strictObject({
  application: z.strictObject({
    name: z.optional(name),
    active: z.optional(z.boolean()),
    application_type: z.optional(applicationType),
    visibility: z.optional(visibility),
    browser_commit_enabled: z.optional(z.boolean()),
    /** Homes what the application collects from now on; what it collected stays where it is. */
    home_country: z.optional(countryCode),
  }),
});
export type UpdateApplicationRequest = z.input<typeof updateApplicationRequest>;

/** `{application}` envelope. */
export const applicationEnvelope = z.object({ application });
/** Create answer: the application and its publishable key (`pk_test_` or `pk_live_`), shown here once. */
export const createdApplication = z.object({ application, publishable_key: z.string() });
/** `{applications: [...], next_cursor}`. */
export const applicationList = listOf('applications', application);

/** One entry of an application's activity log, e.g. `cors.preflight_denied`. */
export const activityEvent = z.object({
  id: z.string(),
  application_id: z.string(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: dateTime(),
});
export type ActivityEvent = z.infer<typeof activityEvent>;
/** `{activity_events: [...], next_cursor}`. */
export const activityEventList = listOf('activity_events', activityEvent);
