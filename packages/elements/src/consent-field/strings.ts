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

// One string per language, the words in the order of `FieldStrings` (mark, object, policy, loading, unavailable)
// joined by `|`: the keys are not repeated for every language.
const STRINGS: Record<string, string> = {
  en: 'Recorded by svc|Ticked by default: untick to object.|Privacy policy|Loading your choices…|Your consent choices could not be loaded.',
  fr: 'Enregistré par svc|Coché par défaut : décochez pour vous y opposer.|Politique de confidentialité|Chargement de vos choix…|Vos choix de consentement n’ont pas pu être chargés.',
  de: 'Aufgezeichnet von svc|Standardmäßig angehakt: Haken entfernen, um zu widersprechen.|Datenschutzerklärung|Ihre Auswahl wird geladen…|Ihre Einwilligungsoptionen konnten nicht geladen werden.',
  es: 'Registrado por svc|Marcado por defecto: desmárquelo para oponerse.|Política de privacidad|Cargando sus opciones…|No se pudieron cargar sus opciones de consentimiento.',
  ar: 'مسجّل بواسطة svc|محدد افتراضيًا: ألغِ التحديد للاعتراض.|سياسة الخصوصية|جارٍ تحميل خياراتك…|تعذّر تحميل خيارات الموافقة.',
  he: 'נרשם על ידי svc|מסומן כברירת מחדל: בטלו את הסימון כדי להתנגד.|מדיניות פרטיות|טוען את הבחירות שלך…|לא ניתן היה לטעון את אפשרויות ההסכמה.',
};

const language = (locale: string | undefined) => (locale ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';

/** The field's words in `locale`'s language, English when the field does not speak it. */
export function stringsFor(locale: string | undefined): FieldStrings {
  const [mark, object, policy, loading, unavailable] = (STRINGS[language(locale)] ?? STRINGS.en!).split('|') as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { mark, object, policy, loading, unavailable };
}

// Scripts written right to left: Arabic, Hebrew, Thaana, Syriac, N'Ko, Adlam, Hanifi Rohingya.
const RTL_SCRIPTS = /^(arab|hebr|thaa|syrc|nkoo|adlm|rohg)$/i;

// The script a tag is written in: its own script subtag, else the language's likely one (CLDR, through
// Intl.Locale#maximize: ar, fa, ur, ps, ckb... -> Arab; he, yi -> Hebr; dv -> Thaa), undefined when unknown or invalid.
const scriptOf = (tag: string | undefined) => {
  try {
    return new Intl.Locale(tag ?? '').maximize().script;
  } catch {
    return undefined;
  }
};

/**
 * The writing direction of a BCP 47 locale: `rtl` when its script (explicit, or its language's usual one) is written
 * right to left, as for ar, he, fa, ur, ps, yi, dv, ckb or az-Arab; undefined when there is no locale, so the page's
 * direction applies.
 */
export function directionOf(locale: string | undefined): 'ltr' | 'rtl' | undefined {
  const tag = locale?.trim().replace(/_/g, '-');
  if (!tag) return undefined;
  // A tag Intl refuses (a malformed subtag after the language) still has its language's direction.
  return RTL_SCRIPTS.test(scriptOf(tag) ?? scriptOf(language(tag)) ?? '') ? 'rtl' : 'ltr';
}
