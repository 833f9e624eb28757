// Render answers (`GET /api/v1/flows/{id}/render`) the consent field stories load when no reference server is
// configured: .storybook/statics.ts writes each one to `{storybook}/svc/api/v1/flows/{flow}/render`, a static file,
// so the static build works offline. They have the shape the reference server answers with; the proof is a
// placeholder (a capture would need the real server).
import type { RenderData } from '@svc/elements';

type Answer = Omit<RenderData, 'flow_id' | 'version' | 'notice_hash' | 'render_proof' | 'render_proof_expires_at'>;

const answer = (flow: string, a: Answer): RenderData => ({
  flow_id: flow,
  version: 3,
  notice_hash: 'sha256:story-notice-hash',
  render_proof: 'story.render.proof',
  render_proof_expires_at: '2099-12-31T23:59:59.000Z',
  ...a,
});

const policy = 'https://northwind.example/privacy';

/** One flow per locale, since a static file cannot look at `?locale=`. */
export const RENDER_ANSWERS: Record<string, RenderData> = {
  flw_story_en: answer('flw_story_en', {
    locale: 'en',
    title: 'Stay in touch with Northwind',
    description: 'Choose what we may use your email address for. You can change your mind at any time.',
    policy_url: policy,
    purposes: [
      {
        key: 'newsletter',
        label: 'Send me the monthly newsletter',
        description: 'News about products and events, once a month.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'research',
        label: 'Invite me to product research',
        description: 'At most four invitations a year.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'fraud',
        label: 'Check my sign-up for fraud',
        description: 'We compare your details with known fraud patterns.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
      {
        key: 'account',
        label: 'Run my account',
        description: 'Needed to give you the service you signed up for.',
        basis: 'contract',
        mechanism: 'notice',
        required: false,
      },
    ],
  }),
  flw_story_fr: answer('flw_story_fr', {
    locale: 'fr',
    title: 'Restez en contact avec Northwind',
    description: 'Choisissez l’usage de votre adresse e-mail. Vous pouvez changer d’avis à tout moment.',
    policy_url: policy,
    purposes: [
      {
        key: 'newsletter',
        label: 'M’envoyer la lettre d’information mensuelle',
        description: 'Actualités produits et événements, une fois par mois.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'fraud',
        label: 'Vérifier mon inscription contre la fraude',
        description: 'Nous comparons vos données à des schémas de fraude connus.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
    ],
  }),
  flw_story_de: answer('flw_story_de', {
    locale: 'de',
    title: 'Bleiben Sie mit Northwind in Kontakt',
    description: 'Wählen Sie, wofür wir Ihre E-Mail-Adresse verwenden dürfen.',
    policy_url: policy,
    purposes: [
      {
        key: 'newsletter',
        label: 'Monatlichen Newsletter erhalten',
        description: 'Neuigkeiten zu Produkten und Veranstaltungen.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'fraud',
        label: 'Meine Anmeldung auf Betrug prüfen',
        description: 'Wir vergleichen Ihre Angaben mit bekannten Betrugsmustern.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
    ],
  }),
  flw_story_ar: answer('flw_story_ar', {
    locale: 'ar',
    title: 'ابقَ على تواصل مع نورثويند',
    description: 'اختر ما يمكننا استخدام بريدك الإلكتروني من أجله. يمكنك تغيير رأيك في أي وقت.',
    policy_url: policy,
    purposes: [
      {
        key: 'newsletter',
        label: 'أرسلوا لي النشرة الشهرية',
        description: 'أخبار المنتجات والفعاليات مرة في الشهر.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'fraud',
        label: 'تحقّقوا من تسجيلي لمنع الاحتيال',
        description: 'نقارن بياناتك بأنماط احتيال معروفة.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
      {
        key: 'account',
        label: 'إدارة حسابي',
        description: 'ضروري لتقديم الخدمة التي اشتركت فيها.',
        basis: 'contract',
        mechanism: 'notice',
        required: false,
      },
    ],
  }),
  flw_story_he: answer('flw_story_he', {
    locale: 'he',
    title: 'הישארו בקשר עם נורת׳וינד',
    description: 'בחרו למה נוכל להשתמש בכתובת הדוא״ל שלכם.',
    policy_url: policy,
    purposes: [
      {
        key: 'newsletter',
        label: 'שלחו לי את הידיעון החודשי',
        description: 'חדשות על מוצרים ואירועים, פעם בחודש.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'fraud',
        label: 'בדקו את ההרשמה שלי מפני הונאה',
        description: 'אנו משווים את פרטיכם לדפוסי הונאה מוכרים.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
    ],
  }),
};
