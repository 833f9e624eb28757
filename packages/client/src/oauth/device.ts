// The device authorization grant (RFC 8628) for a command line: ask for a user code, let the person approve it on
// the service's pages in any browser, and poll the token endpoint meanwhile at the pace the server sets.
import * as oauth from 'oauth4webapi';
import { SvcOAuthError, toSvcError } from './errors.js';
import { clientOf, type ClientCredentials, type Issuer } from './issuer.js';

/** A started device authorization: what to show the person, and what to poll with. */
export interface DeviceAuthorization {
  /** The code the person confirms, e.g. `WDJB-MJHT`. */
  readonly userCode: string;
  /** The page where the person enters the code. */
  readonly verificationUri: string;
  /** The same page with the code filled in, when the server offers it. */
  readonly verificationUriComplete: string | undefined;
  /** Seconds until the codes expire. */
  readonly expiresIn: number;
  /** Seconds to wait between polls (RFC 8628: 5 when the server does not say). */
  readonly interval: number;
  /** The device code to poll with; never shown. */
  readonly deviceCode: string;
}

/** Waits and clock of the polling loop (tests replace them). */
export interface PollTiming {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now(): number;
}

const realTiming: PollTiming = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
  now: () => Date.now(),
};

/** Asks the service for a device code and a user code for `scope`. */
export async function startDeviceAuthorization(
  issuer: Issuer,
  credentials: ClientCredentials,
  scope: string,
): Promise<DeviceAuthorization> {
  const { client, auth } = clientOf(credentials);
  try {
    const res = await oauth.deviceAuthorizationRequest(issuer.as, client, auth, { scope }, issuer.options);
    const started = await oauth.processDeviceAuthorizationResponse(issuer.as, client, res);
    return {
      userCode: started.user_code,
      verificationUri: started.verification_uri,
      verificationUriComplete: started.verification_uri_complete,
      expiresIn: started.expires_in,
      interval: started.interval ?? 5,
      deviceCode: started.device_code,
    };
  } catch (err) {
    throw toSvcError(err, 'the device authorization request');
  }
}

/**
 * Polls the token endpoint until the person approves (the tokens), denies (`SvcOAuthError` `access_denied`) or
 * the codes expire (`expired_token`). Waits `interval` seconds between polls and five more after each
 * `slow_down`, as RFC 8628 section 3.5 asks.
 */
export async function pollDeviceAuthorization(
  issuer: Issuer,
  credentials: ClientCredentials,
  started: DeviceAuthorization,
  options: { signal?: AbortSignal; timing?: PollTiming } = {},
): Promise<oauth.TokenEndpointResponse> {
  const { client, auth } = clientOf(credentials);
  const timing = options.timing ?? realTiming;
  const deadline = timing.now() + started.expiresIn * 1000;
  let interval = started.interval;
  for (;;) {
    await timing.sleep(interval * 1000, options.signal);
    try {
      const res = await oauth.deviceCodeGrantRequest(issuer.as, client, auth, started.deviceCode, issuer.options);
      return await oauth.processDeviceCodeResponse(issuer.as, client, res);
    } catch (err) {
      const error = toSvcError(err, 'the device token request');
      if (!(error instanceof SvcOAuthError)) throw error;
      if (error.reason === 'slow_down') interval += 5;
      else if (error.reason !== 'authorization_pending') throw error;
      if (timing.now() + interval * 1000 > deadline) {
        throw new SvcOAuthError('the device token request failed: expired_token (the code was not approved in time)', {
          reason: 'expired_token',
        });
      }
    }
  }
}
