// The few words the consent field adds around the flow's own wording, and the writing direction of a locale. The
// flow's wording comes from the service in the locale it answers with; these follow that locale.

/** The field's own words. */
export interface FieldStrings {
  /** The recording mark. */
  mark: string;
  /** The hint under a legitimate-interest row: how to object. */
  object: string;
  /** The link to the privacy policy. */
  policy: string;
  /** Said while the purposes load. */
  loading: string;
  /** Said when the purposes could not be loaded. */
  unavailable: string;
}

const STRINGS: Record<string, FieldStrings> = {
  en: {
    mark: 'Recorded by svc',
    object: 'Ticked by default: untick to object.',
    policy: 'Privacy policy',
    loading: 'Loading your choices…',
    unavailable: 'Your consent choices could not be loaded.',
  },
  fr: {
    mark: 'Enregistré par svc',
    object: 'Coché par défaut : décochez pour vous y opposer.',
    policy: 'Politique de confidentialité',
    loading: 'Chargement de vos choix…',
    unavailable: 'Vos choix de consentement n’ont pas pu être chargés.',
  },
  de: {
    mark: 'Aufgezeichnet von svc',
    object: 'Standardmäßig angehakt: Haken entfernen, um zu widersprechen.',
    policy: 'Datenschutzerklärung',
    loading: 'Ihre Auswahl wird geladen…',
    unavailable: 'Ihre Einwilligungsoptionen konnten nicht geladen werden.',
  },
  es: {
    mark: 'Registrado por svc',
    object: 'Marcado por defecto: desmárquelo para oponerse.',
    policy: 'Política de privacidad',
    loading: 'Cargando sus opciones…',
    unavailable: 'No se pudieron cargar sus opciones de consentimiento.',
  },
  ar: {
    mark: 'مسجّل بواسطة svc',
    object: 'محدد افتراضيًا: ألغِ التحديد للاعتراض.',
    policy: 'سياسة الخصوصية',
    loading: 'جارٍ تحميل خياراتك…',
    unavailable: 'تعذّر تحميل خيارات الموافقة.',
  },
  he: {
    mark: 'נרשם על ידי svc',
    object: 'מסומן כברירת מחדל: בטלו את הסימון כדי להתנגד.',
    policy: 'מדיניות פרטיות',
    loading: 'טוען את הבחירות שלך…',
    unavailable: 'לא ניתן היה לטעון את אפשרויות ההסכמה.',
  },
};

const language = (locale: string | undefined) => (locale ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';

/** The field's words in `locale`'s language, English when the field does not speak it. */
export function stringsFor(locale: string | undefined): FieldStrings {
  return STRINGS[language(locale)] ?? STRINGS.en!;
}

// Languages written right to left (their default scripts): Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Yiddish,
// Dhivehi, Uyghur, Central Kurdish, Balochi, Kashmiri.
const RTL_LANGUAGES = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ug', 'ckb', 'bal', 'ks']);
const RTL_SCRIPTS = new Set(['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg']);
const LTR_SCRIPTS = new Set(['latn', 'cyrl', 'grek', 'deva']);

/**
 * The writing direction of a BCP 47 locale (`rtl` for ar, he, fa, ur and the others written right to left, or an
 * explicit right-to-left script subtag), or undefined when there is no locale, so the page's direction applies.
 */
export function directionOf(locale: string | undefined): 'ltr' | 'rtl' | undefined {
  if (!locale?.trim()) return undefined;
  const script = locale.split(/[-_]/).slice(1).find((part) => part.length === 4)?.toLowerCase();
  if (script && RTL_SCRIPTS.has(script)) return 'rtl';
  if (script && LTR_SCRIPTS.has(script)) return 'ltr';
  return RTL_LANGUAGES.has(language(locale)) ? 'rtl' : 'ltr';
}
