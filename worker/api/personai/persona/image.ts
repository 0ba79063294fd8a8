import type { ImageCheck } from '#shared/schemas/ai'
import { FILE_TYPES } from '#shared/schemas/file'
import { settingsOf } from '../../../ai'
import { checkFace } from '../../../ai/face-check'
import { chooseVisionEngine } from '../../../ai/vision'
import { runBatch } from '../../../db/batch'
import { getFile } from '../../../db/files'
import { imageCheckRow, saveImageCheckStatement, type ImageCheckRow } from '../../../db/persona-image'
import type { Auth } from '../../../db/sessions'
import { apiError } from '../../../lib/errors'
import { nowIso } from '../../../lib/tms'
import type { Ctx } from '../../context'

/** A kept definitive check as the API answers it, or the refusal it stands for. */
function answerOf(row: Pick<ImageCheckRow, 'outcome' | 'provider' | 'model' | 'faces' | 'celebrity' | 'confidence' | 'checked_at' | 'file_id'>): ImageCheck {
  if (row.outcome === 'no_face') throw apiError(422, 'no_face', 'validation.persona.image_no_face', 'image_file_id', row.file_id)
  if (row.outcome === 'celebrity')
    throw apiError(422, 'celebrity', 'validation.persona.image_celebrity', 'image_file_id', { name: row.celebrity, confidence: row.confidence })
  return { status: 'checked', provider: row.provider === 'workers_ai' ? 'workers_ai' : 'openai', model: row.model, faces: row.faces, at: row.checked_at }
}

/**
 * The server's check of an uploaded image of the realm as a persona image (issue 16): with a vision provider
 * configured, a face must be found (`422 no_face`) and no celebrity recognised (`422 celebrity`); a provider that
 * fails, answers no valid JSON twice, or a realm past its monthly AI cap leaves the check `not_run` with why, as
 * does a realm without a provider (`not_configured`). A definitive outcome is kept per image, so the photo step's
 * check and the persona's save call the provider once.
 */
export async function checkPersonaImage(c: Ctx, auth: Auth, fileId: string): Promise<ImageCheck> {
  const db = c.env.DB
  const file = await getFile(db, auth.realm, fileId)
  if (!file || file.kind !== 'image') throw apiError(422, 'not_found', 'validation.file.required', 'image_file_id', fileId)
  const kept = await imageCheckRow(db, auth.realm, fileId)
  if (kept) return answerOf(kept)
  const settings = await settingsOf(c.env, auth.realm)
  const chosen = chooseVisionEngine(c.env, settings)
  if (chosen.engine.kind === 'none') return { status: 'not_run', provider: settings.visionProvider, reason: chosen.problem ?? 'not_configured', at: nowIso() }
  const object = await c.env.FILES.get(file.key)
  if (!object) throw apiError(422, 'not_found', 'validation.file.required', 'image_file_id', fileId)
  const bytes = new Uint8Array(await object.arrayBuffer())
  const result = await checkFace(c.env, settings, { bytes, type: FILE_TYPES[file.ext].type }, chosen.engine)
  const at = nowIso()
  if (result.outcome === 'not_run') return { status: 'not_run', provider: result.provider, reason: result.reason, at }
  const row: ImageCheckRow = {
    realm: auth.realm,
    file_id: fileId,
    outcome: result.outcome,
    provider: result.provider,
    model: result.model,
    faces: result.faces,
    celebrity: result.outcome === 'celebrity' ? result.name : null,
    confidence: result.outcome === 'celebrity' ? result.confidence : null,
    checked_at: at,
    checked_by: auth.nick,
  }
  await runBatch(db, [saveImageCheckStatement(db, row)])
  return answerOf(row)
}
