// The floor under `<svc-decision>`'s budget: an element that does nothing but what every decision element must,
// built on the libraries the house uses. A Lit element with @lit/context's consumer, the protocol's host channel
// (zod/mini validation of every message) and its deadline clock, and no markup or logic of its own. `pnpm size`
// prints it so the budget can be read against what the libraries alone cost.
import { ContextConsumer } from '@lit/context';
import { createDeadlineClock, createHostChannel } from '@svc/protocol';
import { css, html, LitElement } from 'lit';

class DecisionFloor extends LitElement {
  static styles = css`:host{display:block}`;
  static properties = { token: {} };
  config = new ContextConsumer(this, { context: Symbol.for('svc.config'), subscribe: true });

  connectedCallback() {
    super.connectedCallback();
    const frame = () => this.renderRoot.querySelector('iframe')?.contentWindow;
    this.channel = createHostChannel({ serviceOrigin: 'https://svc.example', frame, onMessage: () => {} });
    this.clock = createDeadlineClock;
  }

  render() {
    return html`<iframe title="decision"></iframe>`;
  }
}
customElements.define('svc-decision-floor', DecisionFloor);
