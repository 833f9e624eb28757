// Where the stories' elements find "the service". The decision page is always the story-local one, served by
// Storybook itself at `{storybook}/svc`, one origin with the stories. The consent field uses the reference server
// when STORYBOOK_SVC_BASE_URL, STORYBOOK_SVC_PUBLISHABLE_KEY and STORYBOOK_SVC_FLOW_ID are set (from
// `.svc/sandbox.json`: base_url, publishable_key, capture_flow_id; the server must list Storybook's origin as an
// allowed origin), else the static render answers at `{storybook}/svc/api/v1/flows/flw_story_*/render`.

/** The story-local service: the decision pages and static render answers, next to iframe.html. */
export const storyService = (): string => new URL('svc', document.baseURI).href.replace(/\/$/, '');

const env = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};

/** The reference server the consent field stories use, when one is configured. */
export const referenceServer =
  env.STORYBOOK_SVC_BASE_URL && env.STORYBOOK_SVC_PUBLISHABLE_KEY && env.STORYBOOK_SVC_FLOW_ID
    ? { baseUrl: env.STORYBOOK_SVC_BASE_URL, publishableKey: env.STORYBOOK_SVC_PUBLISHABLE_KEY, flowId: env.STORYBOOK_SVC_FLOW_ID }
    : undefined;

/** The consent field's service attributes for a locale: the reference server's flow, or the static answer's. */
export function fieldService(locale = 'en'): { baseUrl: string; publishableKey: string; flow: string; locale?: string } {
  if (referenceServer)
    return { baseUrl: referenceServer.baseUrl, publishableKey: referenceServer.publishableKey, flow: referenceServer.flowId, locale };
  return { baseUrl: storyService(), publishableKey: 'pk_test_storybook', flow: `flw_story_${locale.split('-')[0]}` };
}
