import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { LOCALES } from '~/i18n/config'
import { ROOM_TYPES } from '#shared/schemas/room'
import {
  ANSWER_MEDIA,
  DIFFICULTIES,
  ESSAY_ERROR_CATEGORIES,
  FILL_WORDS_MODES,
  GRADES,
  INFO_KINDS,
  MEDIA_TYPES,
  MODEL_FLAGS,
  MODEL_KINDS,
  PUBLICATION_TYPES,
  TASK_STATUSES,
  TEXT_COUNT_UNITS,
} from '#shared/schemas/tms/constants'
import { QUESTION_TYPES, questionTypeLabel } from '#shared/schemas/tms/question-types'

/** The task-authoring and room screens' sources, read as text. */
const sources = {
  ...import.meta.glob('/app/components/tms/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
  ...import.meta.glob('/app/components/ui/{crud-list,form-screen,simple-form}.tsx', { query: '?raw', import: 'default', eager: true }),
  ...import.meta.glob('/app/routes/_console+/{tms+,room+}/*.{ts,tsx}', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  ...import.meta.glob('/app/lists/{tms-,room}*.ts', { query: '?raw', import: 'default', eager: true }),
} as Record<string, string>

/** Literal keys handed to t() or declared as a label, message, title or hint. */
function literalKeys(): Map<string, string> {
  const found = new Map<string, string>()
  for (const [file, text] of Object.entries(sources)) {
    for (const m of text.matchAll(/(?:\bt\(|(?:label|message|title|hint|flash): )'([a-z_]+(?:\.[A-Za-z0-9_]+)+)'/g)) found.set(m[1], file)
  }
  return found
}

/** Keys the screens build from a constant (`tms.type.${type}`): every value of the constant needs its text. */
const builtKeys = [
  ...QUESTION_TYPES.map(questionTypeLabel),
  ...MODEL_KINDS.map((x) => `tms.kind.${x}`),
  ...TASK_STATUSES.flatMap((x) => [`tms.status.${x}`, `tms.publish.done_${x}`]),
  ...DIFFICULTIES.map((x) => `tms.difficulty.${x}`),
  ...GRADES.map((x) => `tms.grade.${x}`),
  ...[...MEDIA_TYPES, ...INFO_KINDS].map((x) => `tms.media_type.${x}`),
  ...ANSWER_MEDIA.map((x) => `tms.answer_media.${x}`),
  ...PUBLICATION_TYPES.map((x) => `tms.publication.${x}`),
  ...Object.keys(ESSAY_ERROR_CATEGORIES).map((x) => `tms.essay_error.${x}`),
  ...[...TEXT_COUNT_UNITS, 'character'].map((x) => `tms.unit.${x}`),
  ...FILL_WORDS_MODES.map((x) => `tms.editor.mode_${x}`),
  ...['token', ...MODEL_FLAGS].map((x) => `resources.tms_model.fields.${x}`),
  ...['publish_at', 'expire_at', 'display_answer_at', 'correct_at'].map((x) => `resources.tms_task.fields.${x}`),
  ...['update_version', 'pause', 'resume', 'expire'].map((x) => `tms.task.done_${x}`),
  ...['delete', 'duplicate', 'import'].map((x) => `tms.model.${x}_failed`),
  ...['skill', 'group'].map((x) => `tms.skill_type.${x}`),
  ...['inline', 'block'].map((x) => `richtext.formula.${x}`),
  ...ROOM_TYPES.map((x) => `room.type.${x}`),
  ...['tms_model', 'tms_task', 'tms_question_bank', 'tms_category', 'tms_assessed_skill', 'tms_genre', 'tms_token', 'room', 'room_group'].map(
    (x) => `resources.${x}.name`,
  ),
]

describe('task-authoring texts', () => {
  it('reads the screens it checks', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(40)
    expect(literalKeys().size).toBeGreaterThan(250)
  })

  it.each(LOCALES)('%s has every key the task-authoring screens use', (locale) => {
    const catalogue = catalogues[locale]
    const missing = [...literalKeys()].filter(([key]) => !(key in catalogue)).map(([key, file]) => `${key} (${file})`)
    expect(missing).toEqual([])
    expect(builtKeys.filter((key) => !(key in catalogue))).toEqual([])
  })
})
