import * as v from 'valibot'

/** Interface themes (seed 000 §1); `SYSTEM` follows the device: DARK when it prefers dark, else OCEAN. */
export const THEMES = ['DARK', 'OCEAN', 'LEMON', 'ABYSS', 'NATURE'] as const
export type Theme = (typeof THEMES)[number]

/** Display settings (seed 000 §3 Settings), kept in a cookie and applied on the server render. */
export const Settings = v.object({
  theme: v.optional(v.picklist([...THEMES, 'SYSTEM'], 'validation.picklist'), 'SYSTEM'),
  responsiveFontSizes: v.optional(v.boolean(), true),
  compact: v.optional(v.boolean(), false),
  roundedCorners: v.optional(v.boolean(), true),
  direction: v.optional(v.picklist(['ltr', 'rtl'], 'validation.picklist'), 'ltr'),
})
export type Settings = v.InferOutput<typeof Settings>
export const DEFAULT_SETTINGS: Settings = v.parse(Settings, {})

/** The settings drawer's form: checkboxes arrive as 'on' when ticked and are absent otherwise. */
export function settingsFromForm(form: FormData): v.SafeParseResult<typeof Settings> {
  return v.safeParse(Settings, {
    theme: form.get('theme') ?? undefined,
    responsiveFontSizes: form.get('responsiveFontSizes') === 'on',
    compact: form.get('compact') === 'on',
    roundedCorners: form.get('roundedCorners') === 'on',
    direction: form.get('direction') ?? undefined,
  })
}
