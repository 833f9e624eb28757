// The governance settings as <svc-governance> shows them (a description list), the form that changes them (the
// fields `PATCH /api/v1/governance` takes), and the patch a submitted form makes: only the settings it changed. The
// service checks every value; its refusal is said at the form in its own words.
import type { GovernanceSettings } from '@svc/schemas';
import { html, nothing, type TemplateResult } from 'lit';
import { EN } from './strings.js';

type Settings = GovernanceSettings & { updated_at: string | null; updated_by: string | null };
type Kind = 'count' | 'days' | 'decimal' | 'countries' | 'flag' | 'id';

/** Each setting the PATCH takes, in the order shown, and how it is entered. */
const FIELDS: [keyof GovernanceSettings, Kind][] = [
  ['api_token_approvals_required', 'count'],
  ['default_retention_days', 'days'],
  ['allowed_countries', 'countries'],
  ['dsar_due_days', 'count'],
  ['clean_room_min_cohort', 'count'],
  ['clean_room_epsilon_budget', 'decimal'],
  ['clean_room_require_noise', 'flag'],
  ['default_meeting_template', 'id'],
];

/** A moment as the reader's browser writes it (date and time), in a `<time>`. */
export function at(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<time datetime=${iso}>${text}</time>`;
}

const NULLABLE = new Set<Kind>(['days', 'countries', 'id']);

function shown(name: string, value: unknown): string {
  return value === null && EN.defaults[name] ? EN.defaults[name] : EN.value(value);
}

/** The settings, each with its label and value (or what its default means). */
export function settingsList(settings: Settings): TemplateResult {
  const changed = settings.updated_at ? EN.lastChanged(at(settings.updated_at), EN.updatedBy(settings.updated_by)) : EN.neverChanged;
  return html`<dl>${FIELDS.map(
    ([name]) => html`<div><dt>${EN.labels[name]}</dt><dd>${shown(name, settings[name])}</dd></div>`,
  )}</dl><p part=meta>${changed}</p>`;
}

function field(name: keyof GovernanceSettings, kind: Kind, value: unknown): TemplateResult {
  const id = `svc-governance-${name}`;
  if (kind === 'flag')
    return html`<div class=flag><input type=checkbox id=${id} name=${name} ?checked=${value === true}><label for=${id}>${EN.labels[name]}</label></div>`;
  const hint = kind === 'countries' ? EN.countriesHint : NULLABLE.has(kind) ? EN.emptyHint : '';
  const text = Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value);
  const number = kind === 'count' || kind === 'days' || kind === 'decimal';
  return html`<label for=${id}>${EN.labels[name]}</label>
    ${hint ? html`<span class=hint id=${`${id}-hint`}>${hint}</span>` : nothing}
    <input id=${id} name=${name} .value=${text} type=${number ? 'number' : 'text'} step=${kind === 'decimal' ? '0.001' : '1'}
      autocomplete=off spellcheck=false aria-describedby=${hint ? `${id}-hint` : nothing}>`;
}

/** What the form needs from the element. */
export interface SettingsFormOptions {
  saving: boolean;
  problem: string;
  errorId: string;
  onSubmit: (event: SubmitEvent) => unknown;
  onCancel: () => unknown;
}

/** The settings form: one field per setting, the service's refusal above Save. */
export function settingsForm(settings: Settings, options: SettingsFormOptions): TemplateResult {
  const { saving, problem, errorId } = options;
  return html`<form part=form novalidate aria-label=${EN.edit} aria-describedby=${problem ? errorId : nothing} @submit=${options.onSubmit}>
    ${FIELDS.map(([name, kind]) => field(name, kind, settings[name]))}
    ${problem ? html`<p part=form-error id=${errorId} tabindex=-1>${problem}</p>` : nothing}
    <div part=actions>
      <button part=save class=primary type=submit data-key=save aria-busy=${saving ? 'true' : 'false'}>${EN.save}</button>
      <button part=cancel-button type=button @click=${options.onCancel}>${EN.lists.governance.cancel}</button>
    </div>
  </form>`;
}

/** A field's entry as the API takes it (the service says what is wrong with it). */
function parse(kind: Kind, data: FormData, name: string): unknown {
  if (kind === 'flag') return data.get(name) === 'on';
  const text = String(data.get(name) ?? '').trim();
  if (!text) return NULLABLE.has(kind) ? null : undefined;
  if (kind === 'countries')
    return text
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((c) => c.toUpperCase());
  if (kind === 'id') return text;
  const number = Number(text);
  return Number.isNaN(number) ? text : number;
}

/** The settings the submitted form changed, as `PATCH /api/v1/governance` takes them. */
export function settingsPatch(settings: Settings, data: FormData): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [name, kind] of FIELDS) {
    const value = parse(kind, data, name);
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(settings[name])) patch[name] = value;
  }
  return patch;
}
