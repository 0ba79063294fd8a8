import { DialogInput, type PersonaDialog } from '#shared/schemas/persona'

/** The dialog form's schema: the API's own body. */
export const dialogSchema = DialogInput

type Raw = Record<string, unknown>
const list = (x: unknown): Raw[] => (Array.isArray(x) ? (x.filter((i) => i && typeof i === 'object') as Raw[]) : [])

/**
 * The dialog form's values → the API's body (browser and action): each answer's animation from its two plain fields
 * (`animation_provider`: '' none, `browser` the browser's rendering, `did` the generated video kept by its url);
 * questions left blank are dropped; options keep only their text and dialog.
 */
export function prepareDialog(values: Raw): Raw {
  const questions = (Array.isArray(values.questions) ? values.questions : []).filter((q) => typeof q === 'string' && q.trim() !== '')
  const answers = list(values.answers).map(({ animation_provider, animation_url, options, ...rest }) => ({
    ...rest,
    options: list(options).map((o) => ({ text: o.text ?? '', dialog_id: typeof o.dialog_id === 'string' && o.dialog_id ? o.dialog_id : null })),
    animation:
      animation_provider === 'browser'
        ? { provider: 'browser' }
        : animation_provider === 'did' && typeof animation_url === 'string' && animation_url
          ? { provider: 'did', url: animation_url }
          : null,
  }))
  return { ...values, questions, answers }
}

/** The form's starting values: a dialog as the API answers it (animations as two plain fields), or a new one. */
export function dialogStart(d: PersonaDialog | null): Raw {
  if (!d) return { type: 'conversation', name: '', questions: [''], answers: [{ type: 'text', text: '', url: '', options: [], animation_provider: '' }] }
  return {
    type: d.type,
    name: d.name,
    questions: d.questions,
    answers: d.answers.map((a) => ({
      ...a,
      options: a.options.filter((o) => !o.deleted).map((o) => ({ text: o.text, dialog_id: o.dialog_id ?? '' })),
      animation_provider: a.animation?.provider ?? '',
      animation_url: a.animation && a.animation.provider === 'did' ? a.animation.url : '',
    })),
  }
}

/** A dialog's label where another dialog's option names it: its name, else its type and first question. */
export const dialogLabel = (d: PersonaDialog, typeLabel: string) => d.name || [typeLabel, d.questions[0]].filter(Boolean).join(': ')
