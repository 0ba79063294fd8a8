import { extraFieldSpecs, type FieldSpec } from '~/lib/form-fields'

/** The picture input's value that removes the user's picture (the API takes `''` for that; `''` here is "unchanged"). */
export const REMOVE_PICTURE = '-'

/**
 * The user form's fields (seed 002 §3 "User"), read the same way by the screen (live) and the action: the API's own
 * schema (`UserCreate`, `UserUpdate`) checks them, the realm's extra fields included (a required one must be filled).
 */
export function userFields(extra: { key: string; label: string; required: boolean }[], mode: 'create' | 'edit'): FieldSpec[] {
  const f = (name: string, kind: FieldSpec['kind'] = 'text', more: Partial<FieldSpec> = {}): FieldSpec => ({
    name,
    kind,
    label: `resources.user.fields.${name}`,
    ...more,
  })
  return [
    ...(mode === 'create' ? [f('nick', 'text', { required: true })] : []),
    f('name', 'text', { required: true }),
    f('email'),
    f('phone'),
    f('external_id'),
    f('password', 'text', mode === 'edit' ? { label: 'resources.user.fields.new_password' } : {}),
    f('roles', 'checkboxes'),
    f('supervisees', 'lines'),
    f('invisible', 'checkbox'),
    f('bot', 'checkbox'),
    f('hd_support', 'checkbox'),
    f('avatar_file_id', 'text', { label: 'resources.user.fields.picture' }),
    ...extraFieldSpecs(extra),
  ]
}

/**
 * Before the schema: an empty password is none (create) or unchanged (edit); the picture is sent only when changed;
 * an emptied name is the schema's "required" (not a field left out).
 */
export function prepareUser(values: Record<string, unknown>): Record<string, unknown> {
  const { password, avatar_file_id, name, ...rest } = values
  return {
    ...rest,
    name: name ?? '',
    ...(password ? { password } : {}),
    ...(avatar_file_id ? { avatar_file_id: avatar_file_id === REMOVE_PICTURE ? '' : avatar_file_id } : {}),
  }
}
