import * as v from 'valibot'
import type { FieldSpec } from '~/lib/form-fields'
import { AssetCreate, AssetUpdate } from '#shared/schemas/asset'

const label = (k: string) => `resources.asset.fields.${k}`

/** The asset form's fields, read the same way by the screen (live) and the action. */
export const assetFields: FieldSpec[] = [
  { name: 'name', label: label('name'), kind: 'text', required: true },
  { name: 'provider', label: label('provider'), kind: 'select' },
  { name: 'file_id', label: label('file'), kind: 'text' },
  { name: 'url', label: label('url'), kind: 'text' },
  { name: 'infra', label: label('infra'), kind: 'select' },
  { name: 'type', label: label('type'), kind: 'select' },
]

/** An upload sends its file, a link its url (and infra when it is a plain link); the rest of the form is not sent. */
export function prepareAsset(values: Record<string, unknown>): Record<string, unknown> {
  const { file_id, url, infra, ...rest } = values
  if (rest.provider === 'upload') return { ...rest, file_id: file_id ?? '' }
  return { ...rest, url: url ?? '', ...(rest.provider === 'link' ? { infra } : {}) }
}

/** The API's schema, and an upload needs its file (a rule of the form: the API says so too). */
const hasFile = (a: { provider?: string; file_id?: string }) => a.provider !== 'upload' || !!a.file_id
export const AssetCreateForm = v.pipe(
  AssetCreate,
  v.forward(v.check<v.InferOutput<typeof AssetCreate>, string>(hasFile, 'validation.file.required'), ['file_id']),
)
export const AssetUpdateForm = v.pipe(
  AssetUpdate,
  v.forward(v.check<v.InferOutput<typeof AssetUpdate>, string>(hasFile, 'validation.file.required'), ['file_id']),
)
