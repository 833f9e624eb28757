// <story-event-log>: lists the events the elements before it (in the same parent) dispatch, so each story shows
// what a host page would hear. A story helper only; it listens, it does not change the elements.
const EVENTS = [
  'svc-ready',
  'svc-state',
  'svc-complete',
  'svc-cancel',
  'svc-error',
  'svc-resize',
  'svc-deadline',
  'svc-inbox-open',
  'svc-records-withdraw',
  'svc-data-requests-file',
  'svc-capture',
  'change',
];

class StoryEventLog extends HTMLElement {
  private list = document.createElement('ol');
  private readonly onEvent = (event: Event) => {
    if (event.target === this || this.contains(event.target as Node)) return;
    const detail = (event as CustomEvent).detail;
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = detail === undefined || detail === null ? event.type : `${event.type} ${JSON.stringify(detail)}`;
    item.append(code);
    this.list.append(item);
  };
  private parent: HTMLElement | null = null;

  connectedCallback(): void {
    if (!this.list.isConnected) {
      const heading = document.createElement('h2');
      heading.textContent = 'Events';
      heading.style.cssText = 'font: 600 0.875rem system-ui, sans-serif; margin: 1rem 0 0.25rem; color: inherit';
      this.list.setAttribute('aria-label', 'Events the element dispatched');
      this.list.style.cssText =
        'font: 0.75rem/1.4 ui-monospace, monospace; margin: 0; padding-inline-start: 1.5rem; color: inherit; overflow-wrap: anywhere';
      this.append(heading, this.list);
    }
    this.parent = this.parentElement;
    for (const type of EVENTS) this.parent?.addEventListener(type, this.onEvent);
  }

  disconnectedCallback(): void {
    for (const type of EVENTS) this.parent?.removeEventListener(type, this.onEvent);
    this.parent = null;
  }
}

if (!customElements.get('story-event-log')) customElements.define('story-event-log', StoryEventLog);
