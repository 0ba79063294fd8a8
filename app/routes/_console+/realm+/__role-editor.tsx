import { useFetcher } from '@remix-run/react'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText, ruleText, translatedErrors } from '~/lib/error-text'
import { permissionDiff, permissionLabel } from '~/lib/permission-diff'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { PERMISSION_GROUPS, PERMISSIONS, isPlatformPermission, permissionGroup } from '#shared/schemas/permission'

export interface RoleEditorResult {
  fieldErrors?: Record<string, string>
  errors?: ErrorItem[]
}

export interface RoleEditorProps {
  mode: 'create' | 'edit'
  role?: string
  description?: string
  granted: string[]
  /** The permissions the editor holds: the only ones they may grant or revoke (the API's grant ceiling). */
  grantable: readonly string[]
  /** The editor holds this role: it is shown, not editable (the API refuses the change). */
  own?: boolean
}

/**
 * Role editor (seed 000 §6): name and description, then the catalogue permissions the editor holds, grouped by
 * prefix with a select-all per group and a search; saving first shows what changes (granted and revoked) for
 * confirmation. Permissions beyond the editor are not offered: on an existing role, those it grants are listed
 * read-only apart, so the editor sees the whole role and knows saving leaves them as they are. A refused save shows
 * the API's message in a toast.
 */
export function RoleEditor({ mode, role, description, granted, grantable, own = false }: RoleEditorProps) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<RoleEditorResult>({ key: 'role-editor' })
  const mine = useMemo(() => new Set(grantable), [grantable])
  const outside = useMemo(() => granted.filter((p) => !mine.has(p)).sort(), [granted, mine])
  const [name, setName] = useState(role ?? '')
  const [desc, setDesc] = useState(description ?? '')
  const [selected, setSelected] = useState<Set<string>>(() => new Set(granted))
  const [filter, setFilter] = useState('')
  const [reviewing, setReviewing] = useState(false)
  const saving = fetcher.state !== 'idle'
  const changed = permissionDiff(granted, selected)
  const dirty = !saving && (changed.added.length > 0 || changed.removed.length > 0 || desc !== (description ?? '') || (mode === 'create' && name !== ''))
  // The review compares with what the role holds now: nothing yet for a new role (its preselected permissions are
  // granted too; comparing with the preselection said "Granted (0)" while the page counted 1).
  const diff = mode === 'create' ? permissionDiff([], selected) : changed
  const guard = useUnsavedChanges(dirty)
  const errors = fetcher.data?.fieldErrors ?? {}

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.errors?.length) toast.pushErrors(translatedErrors(t, fetcher.data.errors), { title: 'resources.role.save_failed' })
    const own = Object.values(fetcher.data.fieldErrors ?? {})
    if (own.length) {
      // A field's error sits at the top of a long page: say so where the user is, and take them to the field.
      toast.push({ kind: 'error', title: 'resources.role.save_failed', message: ruleText(t, own[0]) })
      if (fetcher.data.fieldErrors?.role) document.getElementById('role-name')?.focus()
    }
  }, [fetcher.state, fetcher.data, toast, t])

  const groups = useMemo(() => {
    const needle = filter.trim().toLowerCase()
    return PERMISSION_GROUPS.map((g) => ({
      group: g,
      permissions: PERMISSIONS.filter(
        (p) => mine.has(p) && permissionGroup(p) === g && (!needle || p.includes(needle) || t(`permissions.group.${g}`).toLowerCase().includes(needle)),
      ),
    })).filter((g) => g.permissions.length > 0)
  }, [filter, t, mine])

  const toggle = (p: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      if (on) next.add(p)
      else next.delete(p)
      return next
    })
  const toggleGroup = (ps: readonly string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      for (const p of ps) {
        if (on) next.add(p)
        else next.delete(p)
      }
      return next
    })

  function submit() {
    const form = new FormData()
    form.set('intent', mode)
    form.set('role', name)
    form.set('description', desc)
    for (const p of selected) form.append('permission', p)
    fetcher.submit(form, { method: 'post' })
    setReviewing(false)
  }

  return (
    <fetcher.Form
      method="post"
      className="role-editor"
      onSubmit={(e) => {
        e.preventDefault()
        setReviewing(true)
      }}
    >
      <input type="hidden" name="intent" value={mode} />
      {own ? <p className="alert alert-info">{t('resources.role.own')}</p> : null}
      {fetcher.data?.errors?.length ? (
        <div className="alert alert-error" role="alert">
          <ul>
            {fetcher.data.errors.map((e, i) => (
              <li key={i}>{errorText(t, e)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="card">
        <div className="field">
          <label htmlFor="role-name">{t('resources.role.fields.role')}</label>
          <input
            id="role-name"
            className="input"
            name="role"
            value={name}
            readOnly={mode === 'edit' || own}
            required
            onChange={(e) => setName(e.currentTarget.value)}
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={errors.role ? 'role-name-error' : 'role-name-hint'}
          />
          {errors.role ? (
            <p className="error" id="role-name-error">
              {t(errors.role)}
            </p>
          ) : (
            <p className="hint" id="role-name-hint">
              {t('validation.role_name')}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="role-description">{t('resources.role.fields.description')}</label>
          <textarea
            id="role-description"
            className="input"
            name="description"
            rows={2}
            maxLength={500}
            value={desc}
            readOnly={own}
            onChange={(e) => setDesc(e.currentTarget.value)}
          />
        </div>
      </div>
      <div className="card">
        <div className="page-header">
          <h2>{t('resources.role.permissions', { count: selected.size })}</h2>
          <input
            className="input permission-search"
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            placeholder={t('resources.role.search')}
            aria-label={t('resources.role.search')}
          />
        </div>
        <p className="hint">{t('resources.role.grantable_hint')}</p>
        {groups.length === 0 ? <p>{t('table.empty')}</p> : null}
        <div className="permission-groups">
          {groups.map(({ group, permissions }) => {
            const on = permissions.filter((p) => selected.has(p)).length
            return (
              <fieldset key={group} className="permission-group">
                <legend>
                  <label className="group-toggle">
                    <input
                      type="checkbox"
                      checked={on === permissions.length}
                      disabled={own}
                      ref={(el) => {
                        if (el) el.indeterminate = on > 0 && on < permissions.length
                      }}
                      onChange={(e) => toggleGroup(permissions, e.currentTarget.checked)}
                      aria-label={t('resources.role.select_group', { group: t(`permissions.group.${group}`) })}
                    />
                    <span>{t(`permissions.group.${group}`)}</span>
                    <span className="badge">
                      {on}/{permissions.length}
                    </span>
                  </label>
                </legend>
                <ul>
                  {permissions.map((p) => (
                    <li key={p}>
                      <label>
                        <input
                          type="checkbox"
                          name="permission"
                          value={p}
                          checked={selected.has(p)}
                          disabled={own}
                          onChange={(e) => toggle(p, e.currentTarget.checked)}
                        />
                        <span>{permissionLabel(t, p)}</span>
                        <code className="hint"> {p}</code>
                        {isPlatformPermission(p) ? (
                          <span className="badge" title={t('resources.platform.hint')}>
                            {t('resources.platform.badge')}
                          </span>
                        ) : null}
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            )
          })}
        </div>
      </div>
      {outside.length ? (
        <div className="card role-outside">
          <h2>{t('resources.role.outside.title', { count: outside.length })}</h2>
          <p className="hint">{t('resources.role.outside.hint')}</p>
          <ul className="permission-readonly">
            {outside.map((p) => (
              <li key={p}>
                {permissionLabel(t, p)} <code className="hint">{p}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {own ? null : (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('resources.role.review')}
          </button>
        </div>
      )}
      <Dialog open={reviewing} onClose={() => setReviewing(false)} title={t('resources.role.diff.title')} labelledBy="role-diff-title">
        {diff.added.length === 0 && diff.removed.length === 0 && desc === (description ?? '') && mode === 'edit' ? (
          <p>{t('resources.role.diff.none')}</p>
        ) : (
          <div className="diff">
            {desc !== (description ?? '') ? <p>{t('resources.role.diff.description')}</p> : null}
            <h3>{t('resources.role.diff.added', { count: diff.added.length })}</h3>
            <ul className="diff-added">
              {diff.added.map((p) => (
                <li key={p}>
                  + {permissionLabel(t, p)} <code className="hint">{p}</code>
                </li>
              ))}
            </ul>
            <h3>{t('resources.role.diff.removed', { count: diff.removed.length })}</h3>
            <ul className="diff-removed">
              {diff.removed.map((p) => (
                <li key={p}>
                  − {permissionLabel(t, p)} <code className="hint">{p}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => setReviewing(false)}>
            {t('resources.role.diff.back')}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit}>
            {t('resources.role.diff.confirm')}
          </button>
        </div>
      </Dialog>
      {guard}
    </fetcher.Form>
  )
}
