import { useTranslation } from '~/i18n/react'
import { FileUpload } from '~/components/ui/file-upload'
import type { UploadedFile } from '#shared/schemas/file'
import type { RoleChoice } from './__user.server'

/** The user's roles: the first is the primary one; a role granting more than the editor holds cannot change. */
export function UserRoles({
  roles,
  value,
  onChange,
  error,
  disabled,
}: {
  roles: RoleChoice[]
  value: string[]
  onChange: (v: string[]) => void
  error?: string
  disabled?: boolean
}) {
  const { t } = useTranslation()
  return (
    <fieldset className="card roles-field" aria-describedby="user-roles-msg" aria-invalid={error ? true : undefined}>
      <legend>{t('resources.user.fields.roles')}</legend>
      <ul className="plain-list role-choices">
        {roles.map((r) => (
          <li key={r.role}>
            <label className="switch">
              <input
                type="checkbox"
                checked={value.includes(r.role)}
                disabled={disabled || !r.assignable}
                onChange={(e) => onChange(e.currentTarget.checked ? [...value, r.role] : value.filter((x) => x !== r.role))}
              />
              <span>
                <strong>{r.role}</strong>
                {value[0] === r.role ? <span className="badge">{t('resources.user.primary_role')}</span> : null}
                {r.description ? <span className="hint"> — {r.description}</span> : null}
                {r.assignable ? null : <span className="hint"> ({t('resources.user.role_locked')})</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <p className={error ? 'error' : 'hint'} id="user-roles-msg" role={error ? 'alert' : undefined}>
        {error ? t(error) : t('resources.user.hints.roles')}
      </p>
    </fieldset>
  )
}

/** The profile picture (when the realm allows custom pictures): an uploaded image, shown, removable. */
export function UserPicture({
  url,
  onChange,
  disabled,
  error,
}: {
  url: string
  onChange: (file: UploadedFile | null) => void
  disabled?: boolean
  error?: string
}) {
  const { t } = useTranslation()
  return (
    <div className="user-picture">
      {url ? <img src={url} alt={t('resources.user.picture_alt')} className="avatar-large" /> : <span className="hint">{t('resources.user.no_picture')}</span>}
      {disabled ? null : (
        <>
          <FileUpload
            label={t('resources.user.fields.picture')}
            options={{ accept: ['png', 'jpg', 'jpeg', 'webp', 'gif'], minWidth: 32, minHeight: 32, maxWidth: 4096, maxHeight: 4096 }}
            onUploaded={onChange}
            hint={t('resources.user.hints.picture')}
          />
          {url ? (
            <button type="button" className="btn" onClick={() => onChange(null)}>
              {t('resources.user.remove_picture')}
            </button>
          ) : null}
        </>
      )}
      {error ? <p className="error">{t(error)}</p> : null}
    </div>
  )
}
