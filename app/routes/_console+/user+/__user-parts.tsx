import { useField } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FileUpload } from '~/components/ui/file-upload'
import { errorText } from '~/lib/error-text'
import { decodeError } from '~/lib/form-kit'
import { REMOVE_PICTURE } from './__user-fields'
import type { RoleChoice } from './__user.server'

/**
 * The user's roles (field `roles` of the kit form): the first is the primary one, so the user's roles come first in
 * their order and a role checked later is added after them. A role granting more than the editor holds cannot change
 * (a held one is still posted, so saving keeps it).
 */
export function UserRoles({ roles, disabled }: { roles: RoleChoice[]; disabled?: boolean }) {
  const { t } = useTranslation()
  const [meta] = useField<string[]>('roles')
  const held = Array.isArray(meta.initialValue) ? (meta.initialValue as string[]) : meta.initialValue ? [String(meta.initialValue)] : []
  const ordered = [...held.flatMap((r) => roles.filter((x) => x.role === r)), ...roles.filter((x) => !held.includes(x.role))]
  const [checked, setChecked] = useState(held)
  const primary = ordered.find((r) => checked.includes(r.role))?.role
  const error = meta.errors?.[0]
  return (
    <fieldset
      className="card roles-field"
      id={meta.id}
      aria-describedby={meta.errorId}
      aria-invalid={error ? true : undefined}
      onChange={(e) => {
        const box = e.target as HTMLInputElement
        if (box.name === meta.name) setChecked((c) => (box.checked ? [...c, box.value] : c.filter((x) => x !== box.value)))
      }}
    >
      <legend>{t('resources.user.fields.roles')}</legend>
      <ul className="plain-list role-choices">
        {ordered.map((r) => {
          const locked = disabled || !r.assignable
          return (
            <li key={r.role}>
              <label className="switch">
                <input type="checkbox" name={meta.name} value={r.role} defaultChecked={held.includes(r.role)} disabled={locked} />
                {locked && !disabled && held.includes(r.role) ? <input type="hidden" name={meta.name} value={r.role} /> : null}
                <span>
                  <strong>{r.role}</strong>
                  {primary === r.role ? <span className="badge">{t('resources.user.primary_role')}</span> : null}
                  {r.description ? <span className="hint"> — {r.description}</span> : null}
                  {r.assignable ? null : <span className="hint"> ({t('resources.user.role_locked')})</span>}
                </span>
              </label>
            </li>
          )
        })}
      </ul>
      <p className={error ? 'error' : 'hint'} id={meta.errorId}>
        {error ? errorText(t, decodeError(error)) : t('resources.user.hints.roles')}
      </p>
    </fieldset>
  )
}

/**
 * The profile picture (when the realm allows custom pictures): an uploaded image, shown, removable. The kit form's
 * `avatar_file_id` input holds the new file's id, or `REMOVE_PICTURE`; empty means unchanged.
 */
export function UserPicture({ url: stored, disabled }: { url: string; disabled?: boolean }) {
  const { t } = useTranslation()
  const [meta] = useField<string>('avatar_file_id')
  const [picked, setPicked] = useState<{ id: string; url: string } | null>(null)
  const url = picked ? picked.url : stored
  const error = meta.errors?.[0]
  return (
    <div className="user-picture" id={meta.id}>
      <input type="hidden" name={meta.name} value={picked ? picked.id || REMOVE_PICTURE : ''} />
      {url ? <img src={url} alt={t('resources.user.picture_alt')} className="avatar-large" /> : <span className="hint">{t('resources.user.no_picture')}</span>}
      {disabled ? null : (
        <>
          <FileUpload
            label={t('resources.user.fields.picture')}
            options={{ accept: ['png', 'jpg', 'jpeg', 'webp', 'gif'], minWidth: 32, minHeight: 32, maxWidth: 4096, maxHeight: 4096 }}
            onUploaded={(file) => setPicked({ id: file.id, url: file.cdn_full_url })}
            hint={t('resources.user.hints.picture')}
          />
          {url ? (
            <button type="button" className="btn" onClick={() => setPicked({ id: '', url: '' })}>
              {t('resources.user.remove_picture')}
            </button>
          ) : null}
        </>
      )}
      {error ? (
        <p className="error" id={meta.errorId}>
          {errorText(t, decodeError(error))}
        </p>
      ) : null}
    </div>
  )
}
