// What a production application's api_base_url may be: the provider's own API, nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { productionBaseUrlRefusal } from './providers.js';

describe("a production connection's api_base_url", () => {
  it("takes the provider's own API", () => {
    assert.equal(productionBaseUrlRefusal('mailchimp', 'https://us21.api.mailchimp.com/3.0'), undefined);
    assert.equal(productionBaseUrlRefusal('brevo', 'https://api.brevo.com/v3'), undefined);
  });

  it('refuses another host, a look-alike, a port, credentials, plain http and a malformed URL', () => {
    const cases: [Parameters<typeof productionBaseUrlRefusal>[0], string, string][] = [
      ['mailchimp', 'https://api.brevo.com/v3', 'non_provider_api_base_url'],
      ['brevo', 'https://us21.api.mailchimp.com/3.0', 'non_provider_api_base_url'],
      ['mailchimp', 'https://us21.api.mailchimp.com.evil.example/3.0', 'non_provider_api_base_url'],
      ['mailchimp', 'https://evil.example/us21.api.mailchimp.com', 'non_provider_api_base_url'],
      ['mailchimp', 'https://api.mailchimp.com/3.0', 'non_provider_api_base_url'],
      ['brevo', 'https://api.brevo.com:444/v3', 'non_provider_api_base_url'],
      ['brevo', 'https://a:b@api.brevo.com/v3', 'non_provider_api_base_url'],
      ['brevo', 'http://api.brevo.com/v3', 'insecure_api_base_url'],
      ['brevo', 'not a url', 'invalid_api_base_url'],
    ];
    for (const [provider, url, code] of cases) assert.equal(productionBaseUrlRefusal(provider, url)?.code, code, url);
  });
});
