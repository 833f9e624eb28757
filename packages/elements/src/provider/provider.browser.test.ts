// <svc-provider> shares its configuration over the context protocol: @lit/context's consumers (what a page's own
// element would use with the exported `svcConfigContext`) get the configuration, its changes, and the closer of two
// providers.
import { ContextConsumer } from '@lit/context';
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { type SvcConfig, svcConfigContext } from '../internal/config.js';
import { SvcProvider } from './provider.js';

class ConfigProbe extends LitElement {
  readonly consumer = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly seen: (SvcConfig | undefined)[] = [];
  override updated(): void {
    this.seen.push(this.consumer.value);
  }
}
customElements.define('config-probe', ConfigProbe);

describe('<svc-provider>', () => {
  afterEach(() => fixtureCleanup());

  it('answers a @lit/context consumer inside it, through shadow roots, and notifies it of every change', async () => {
    const provider = await fixture<SvcProvider>(
      html`<svc-provider trust-url="https://svc.example" locale="pt-BR"><div></div></svc-provider>`,
    );
    const shadow = provider.querySelector('div')!.attachShadow({ mode: 'open' });
    const probe = document.createElement('config-probe') as ConfigProbe;
    shadow.append(probe);
    await probe.updateComplete;
    expect(probe.consumer.value).to.include({ trustUrl: 'https://svc.example', locale: 'pt-BR' });
    provider.publishableKey = 'pk_test_x';
    await provider.updateComplete;
    await probe.updateComplete;
    expect(probe.consumer.value).to.include({ trustUrl: 'https://svc.example', publishableKey: 'pk_test_x' });
    expect(probe.seen.at(-1)).to.equal(probe.consumer.value);
  });

  it('answers a one-time request once, and ignores other contexts', async () => {
    const provider = await fixture<SvcProvider>(html`<svc-provider base-url="https://api.example"><p></p></svc-provider>`);
    const target = provider.querySelector('p')!;
    const values: unknown[] = [];
    const ask = (context: unknown) =>
      target.dispatchEvent(
        Object.assign(new Event('context-request', { bubbles: true, composed: true, cancelable: true }), {
          context,
          contextTarget: target,
          callback: (value: unknown) => values.push(value),
          subscribe: false,
        }),
      );
    ask(Symbol.for('another.context'));
    expect(values).to.deep.equal([]);
    ask(svcConfigContext);
    provider.baseUrl = 'https://api2.example';
    await provider.updateComplete;
    expect(values).to.have.length(1);
    expect(values[0]).to.include({ baseUrl: 'https://api.example' });
  });

  it('hands the consumers inside over to a provider that connects closer to them', async () => {
    const outer = await fixture<SvcProvider>(html`<svc-provider trust-url="https://outer.example"><div></div></svc-provider>`);
    const probe = document.createElement('config-probe') as ConfigProbe;
    // An inner provider whose element is not upgraded yet: the probe subscribes to the outer one first.
    const inner = document.createElement('svc-provider-later');
    inner.setAttribute('trust-url', 'https://inner.example');
    inner.append(probe);
    outer.querySelector('div')!.append(inner);
    await probe.updateComplete;
    expect(probe.consumer.value?.trustUrl).to.equal('https://outer.example');
    customElements.define('svc-provider-later', class extends SvcProvider {});
    await (inner as SvcProvider).updateComplete;
    await probe.updateComplete;
    expect(probe.consumer.value?.trustUrl).to.equal('https://inner.example');
    // The outer provider's changes no longer reach it.
    outer.trustUrl = 'https://outer2.example';
    await outer.updateComplete;
    await probe.updateComplete;
    expect(probe.consumer.value?.trustUrl).to.equal('https://inner.example');
    (inner as SvcProvider).trustUrl = 'https://inner2.example';
    await (inner as SvcProvider).updateComplete;
    await probe.updateComplete;
    expect(probe.consumer.value?.trustUrl).to.equal('https://inner2.example');
  });
});
