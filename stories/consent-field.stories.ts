// <svc-consent-field> in every appearance, density, theme and locale, and its refusal and error states. The element
// is the real one; what it renders comes from the render endpoint: the reference server when STORYBOOK_SVC_BASE_URL
// (and its key and flow) are set, else a static render answer Storybook serves (stories/support/render-answers.ts).
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import '@svc/elements';
import type { Appearance, SvcConsentField } from '@svc/elements';
import { fieldService } from './support/service.js';
import './support/event-log.js';

interface Args extends Appearance {
  locale: string;
  theme: 'light' | 'dark' | 'auto';
  disabled: boolean;
  purposes?: string;
  /** Overrides the appearance controls with this attribute text as is (for invalid values). */
  rawAppearance?: string;
  flow?: string;
  'base-url'?: string;
  'publishable-key'?: string;
}

const APPEARANCE: (keyof Appearance)[] = ['fontFamily', 'fontSize', 'text', 'muted', 'accent', 'border', 'radius', 'density'];
const appearance = 'Appearance (the appearance attribute, JSON)';

const meta: Meta<Args> = {
  title: 'Elements/svc-consent-field',
  component: 'svc-consent-field',
  args: { locale: 'en', theme: 'light', disabled: false },
  argTypes: {
    fontFamily: { control: 'select', options: [undefined, 'system', 'inter', 'serif', 'mono'], table: { category: appearance } },
    fontSize: { control: 'text', description: 'A CSS length such as `15px`.', table: { category: appearance } },
    text: { control: 'color', table: { category: appearance } },
    muted: { control: 'color', table: { category: appearance } },
    accent: { control: 'color', table: { category: appearance } },
    border: { control: 'color', table: { category: appearance } },
    radius: { control: 'text', description: 'A CSS length such as `4px`.', table: { category: appearance } },
    density: { control: 'inline-radio', options: [undefined, 'compact', 'regular', 'relaxed'], table: { category: appearance } },
    rawAppearance: {
      control: 'text',
      description: 'Attribute text used as is instead of the controls above.',
      table: { category: appearance },
    },
    locale: { control: 'select', options: ['en', 'fr', 'de', 'ar', 'he'] },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    disabled: { control: 'boolean' },
    purposes: { control: 'text', description: 'Comma-separated purpose keys to show (default all).' },
  },
  render: (args) => {
    const service = fieldService(args.locale);
    const chosen = Object.fromEntries(APPEARANCE.filter((k) => args[k] !== undefined && args[k] !== '').map((k) => [k, args[k]]));
    const attribute = args.rawAppearance ?? (Object.keys(chosen).length ? JSON.stringify(chosen) : undefined);
    const dark = args.theme === 'dark';
    // A dark field sits on a dark page; the field itself has no background.
    const page = `padding: 1rem; max-width: 34rem; ${dark ? 'background: #16191d; color: #f0f2f4;' : ''}`;
    return html`<form class="story" style=${page} lang=${args.locale} @submit=${(e: Event) => e.preventDefault()}>
      <svc-consent-field name="consent"
        flow=${args.flow ?? service.flow}
        base-url=${args['base-url'] ?? service.baseUrl}
        publishable-key=${args['publishable-key'] ?? service.publishableKey}
        locale=${args.locale}
        theme=${args.theme}
        appearance=${ifDefined(attribute)}
        purposes=${ifDefined(args.purposes || undefined)}
        ?disabled=${args.disabled}></svc-consent-field>
      <story-event-log></story-event-log>
    </form>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Loads the flow from the render endpoint: the reference server when configured (STORYBOOK_SVC_BASE_URL, ' +
          'STORYBOOK_SVC_PUBLISHABLE_KEY, STORYBOOK_SVC_FLOW_ID), else static render answers served by Storybook.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** The flow as the service renders it, no appearance: consent boxes unticked, the right-to-object box ticked. */
export const Default: Story = {};

/** Every appearance key set through the controls. */
export const AppearanceEveryKey: Story = {
  name: 'Appearance: every key',
  args: {
    fontFamily: 'serif',
    fontSize: '17px',
    text: '#1b1f3b',
    muted: '#4a4f6a',
    accent: '#6d28d9',
    border: '#6d28d9',
    radius: '12px',
    density: 'relaxed',
  },
};
/** `fontFamily`: `system`, `inter`, `serif` or `mono`. */
export const FontFamily: Story = { name: 'Appearance: fontFamily (mono)', args: { fontFamily: 'mono' } };
/** `fontSize`: a CSS length. */
export const FontSize: Story = { name: 'Appearance: fontSize (19px)', args: { fontSize: '19px' } };
/** `text` and `muted`: colours of labels and descriptions. */
export const TextColours: Story = { name: 'Appearance: text and muted', args: { text: '#0f3d2e', muted: '#2f5d4e' } };
/** `accent`: ticked boxes, links and the focus ring. */
export const Accent: Story = { name: 'Appearance: accent', args: { accent: '#b3261e' } };
/** `border` and `radius`. */
export const BorderRadius: Story = { name: 'Appearance: border and radius', args: { border: '#0b57d0', radius: '0' } };

/** `density: compact`. */
export const DensityCompact: Story = { name: 'Density: compact', args: { density: 'compact' } };
/** `density: regular` (the default). */
export const DensityRegular: Story = { name: 'Density: regular', args: { density: 'regular' } };
/** `density: relaxed`. */
export const DensityRelaxed: Story = { name: 'Density: relaxed', args: { density: 'relaxed' } };

/** `theme="light"` (the default). */
export const ThemeLight: Story = { name: 'Theme: light', args: { theme: 'light' } };
/** `theme="dark"`, on a dark page. */
export const ThemeDark: Story = { name: 'Theme: dark', args: { theme: 'dark' } };

/** French: the flow's wording and the field's own words. */
export const LocaleFrench: Story = { name: 'Locale: French', args: { locale: 'fr' } };
/** German. */
export const LocaleGerman: Story = { name: 'Locale: German', args: { locale: 'de' } };
/** Arabic, right to left: the field sets `dir="rtl"` and mirrors its layout. */
export const LocaleArabicRtl: Story = { name: 'Locale: Arabic (right to left)', args: { locale: 'ar' } };
/** Hebrew, right to left. */
export const LocaleHebrewRtl: Story = { name: 'Locale: Hebrew (right to left)', args: { locale: 'he' } };

/**
 * Invalid appearance values are ignored one by one (a console warning names them) and the valid ones still apply:
 * here only `accent` and `radius` are valid.
 */
export const InvalidAppearanceIgnored: Story = {
  name: 'Appearance: invalid values ignored',
  args: {
    rawAppearance: JSON.stringify({
      accent: '#0b7a3b',
      radius: '10px',
      text: 'var(--evil)',
      fontSize: 'huge',
      density: 'cosy',
      fontFamily: 'comic',
      background: 'red',
    }),
  },
};

/** Only some purposes shown (`purposes="newsletter,research,fraud"`). */
export const SomePurposes: Story = { name: 'Purposes: a subset', args: { purposes: 'newsletter,research,fraud' } };

/** Disabled: the boxes cannot change and nothing is captured. */
export const Disabled: Story = { args: { disabled: true } };

/**
 * Refusal: the person declines everything: the consent boxes stay unticked and the right-to-object box is unticked
 * (an objection). The field's `decisions` then reads `declined` for each; the story unticks the box as a person would.
 */
export const Refusal: Story = {
  name: 'Refusal: everything declined',
  play: async ({ canvasElement }) => {
    const field = canvasElement.querySelector<SvcConsentField>('svc-consent-field')!;
    for (let i = 0; i < 100 && field.state !== 'ready' && field.state !== 'error'; i += 1) await new Promise((r) => setTimeout(r, 50));
    await field.updateComplete;
    const objection = field.shadowRoot!.querySelector<HTMLInputElement>('.row--object input');
    if (objection?.checked) objection.click();
    await field.updateComplete;
  },
};

/** The render endpoint refuses: an unknown flow answers HTTP 404, the field says its choices could not be loaded and fires `svc-error`. */
export const ErrorUnknownFlow: Story = {
  name: 'Error: unknown flow (HTTP 404)',
  args: { flow: 'flw_story_missing' },
};
/** The service cannot be reached: the same message, `svc-error` with code `network`. */
export const ErrorUnreachable: Story = {
  name: 'Error: service unreachable',
  args: { 'base-url': 'https://svc.invalid', flow: 'flw_story_en', 'publishable-key': 'pk_test_storybook' },
};
/** No publishable key: `svc-error` with code `invalid_configuration` before anything is fetched. */
export const ErrorInvalidConfiguration: Story = {
  name: 'Error: invalid configuration',
  args: { 'publishable-key': '', flow: 'flw_story_en' },
};
