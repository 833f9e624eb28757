// The playground page's script (`/assets/playground.js`). It writes no host code of its own: the elements come
// from the script tag `/sdk/v1/svc.js`; this only asks the page's server for a decision, gives its token to
// `<svc-decision>`, logs the element's events, and hands the `exchange_token` back to the server, which exchanges
// and verifies it. Browser events prove nothing; the result shown is the server's.

interface Decision {
  session_token: string;
}

interface Completed {
  exchange: { outcome: string; status: string; record_id?: string };
  verification: { valid: boolean; status?: string } | null;
}

const EVENTS = ['svc-ready', 'svc-state', 'svc-complete', 'svc-cancel', 'svc-error', 'svc-resize', 'svc-deadline'] as const;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(json.message ?? `HTTP ${res.status}`);
  return json;
}

function start(): void {
  const form = byId<HTMLFormElement>('decision-form');
  const element = byId<HTMLElement & { token: string; mode: string }>('decision');
  const log = byId<HTMLOListElement>('decision-log');
  const status = byId<HTMLElement>('decision-status');
  const result = byId<HTMLElement>('decision-result');
  if (!form || !element || !log || !status || !result) return;
  wire(form, element, log, status, result);
}

function wire(
  form: HTMLFormElement,
  element: HTMLElement & { token: string; mode: string },
  log: HTMLOListElement,
  status: HTMLElement,
  result: HTMLElement,
): void {
  let session = '';

  const show = (id: string, text: string) => {
    const el = byId(id);
    if (el) el.textContent = text;
  };

  const entry = (type: string, detail: unknown) => {
    const li = document.createElement('li');
    const name = document.createElement('strong');
    name.textContent = `${new Date().toISOString().slice(11, 19)} ${type}`;
    li.append(name, ` ${JSON.stringify(detail ?? null)}`);
    log.append(li);
  };

  for (const type of EVENTS) {
    element.addEventListener(type, (event) => {
      // Resizes arrive often; they are logged but not worth announcing one by one.
      entry(type, (event as CustomEvent).detail);
      if (type === 'svc-complete') void complete((event as CustomEvent<{ exchange_token: string }>).detail.exchange_token);
    });
  }

  async function complete(exchangeToken: string): Promise<void> {
    status.textContent = 'The element reports completion; asking the server to exchange and verify…';
    try {
      const done = await post<Completed>('/playground/complete', { session_token: session, exchange_token: exchangeToken });
      show('result-outcome', done.exchange.outcome);
      show('result-status', done.exchange.status);
      show('result-valid', done.verification ? String(done.verification.valid) : 'no consent token');
      show('result-record', done.exchange.record_id ?? '(none)');
      result.hidden = false;
      status.textContent = `Confirmed by the server: ${done.exchange.outcome}.`;
    } catch (error) {
      status.textContent = `The server could not confirm the decision: ${(error as Error).message}`;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const mode = String(data.get('mode') ?? 'embed');
    const flow = String(data.get('flow') ?? 'standard');
    log.replaceChildren();
    result.hidden = true;
    status.textContent = 'Creating a decision on the server…';
    post<{ decision: Decision }>('/playground/decisions', { kind: 'consent', flow, delivery_mode: mode })
      .then(({ decision }) => {
        session = decision.session_token;
        // The empty state stood in for the element until now: show the element with its decision.
        const empty = byId('decision-empty');
        if (empty) empty.hidden = true;
        element.hidden = false;
        element.mode = mode;
        element.token = decision.session_token;
        status.textContent = mode === 'popup' ? 'Decision created: open it with the button below.' : 'Decision created.';
      })
      .catch((error: Error) => {
        status.textContent = `The decision could not be created: ${error.message}`;
      });
  });
}

// The elements come from the script tag; wait for the decision element before wiring it.
void customElements.whenDefined('svc-decision').then(start);
