// An organisation's checkout page showing `<svc-decision token mode>` from the service's script tag, recording
// every svc event the element fires in `window.svcEvents`; with `forge`, it also embeds a frame (on another
// origin) that forges protocol messages. Shared by the Playwright suite and the other engines' harness.

/** The events the page records, in `window.svcEvents` as `{type, detail, target}`. */
export const SVC_EVENTS = ['svc-ready', 'svc-state', 'svc-complete', 'svc-cancel', 'svc-error', 'svc-resize', 'svc-deadline'];

const escape = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page's HTML; `service` is the service's origin (the script tag's). */
export function checkout(service: string, token: string, mode: string, forge: string | null = null): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Shop checkout</title>
<script src="${service}/sdk/v1/svc.js"></script>
<script>
  window.svcEvents = [];
  for (const type of ${JSON.stringify(SVC_EVENTS)}) {
    document.addEventListener(type, (event) => svcEvents.push({ type, detail: event.detail, target: event.target.localName }));
  }
  window.svcForged = [];
  addEventListener('message', (event) => { if (event.data && event.data.forged) svcForged.push(event.data.forged); });
</script>
</head>
<body>
<main>
<h1>Checkout</h1>
<svc-decision token="${escape(token)}" mode="${escape(mode)}"></svc-decision>
${forge ? `<iframe title="Advertisement" src="${escape(forge)}" style="width: 10px; height: 10px; border: 0"></iframe>` : ''}
</main>
</body>
</html>`;
}
