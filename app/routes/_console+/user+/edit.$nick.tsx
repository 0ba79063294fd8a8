import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { jsonBody } from '~/lib/json'
import type { ErrorItem } from '#shared/schemas/error'
import { UserForm } from './__user-form'
import { saveUser, userFormData } from './__user.server'

export const handle = { title: 'pages.user.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => userFormData(request, context, 'edit', params.nick)

export const action = ({ request, context, params }: ActionFunctionArgs) => saveUser(request, context, 'edit', params.nick)

export default function UserEditRoute() {
  const data = useLoaderData<typeof loader>()
  const user = data.user!
  const { t } = useTranslation()
  const toast = useToast()
  const toggle = useFetcher<{ errors: ErrorItem[]; toggled?: boolean }>({ key: 'user-disable' })
  const [confirm, setConfirm] = useState(false)
  const foreign = user.origin_realm !== data.realm
  useEffect(() => {
    if (toggle.state !== 'idle' || !toggle.data) return
    if (toggle.data.toggled) toast.push({ kind: 'success', message: 'resources.user.done' })
    else toast.pushErrors(toggle.data.errors)
  }, [toggle.state, toggle.data, toast])
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.user.edit')}: {user.nick}
          </h1>
          <p className="hint">
            {t(user.disabled ? 'resources.user.status.disabled' : 'resources.user.status.active')} · {t('resources.user.fields.origin_realm')}:{' '}
            {user.origin_realm}
          </p>
        </div>
        <div className="toolbar-actions">
          {data.canDisable && !data.self && !foreign && !user.ceiling ? (
            <button type="button" className={`btn ${user.disabled ? '' : 'btn-danger'}`} onClick={() => setConfirm(true)} disabled={toggle.state !== 'idle'}>
              <Icon name={user.disabled ? 'check' : 'block'} /> {t(user.disabled ? 'resources.user.enable' : 'resources.user.disable', { nick: user.nick })}
            </button>
          ) : null}
          <Link to="/user" className="btn">
            {t('resources.user.back')}
          </Link>
        </div>
      </div>
      <UserForm
        key={`${user.nick}:${user.updated_at}`}
        mode="edit"
        user={user}
        roles={data.roles}
        extra={data.extra}
        nickSuffix={data.nickSuffix}
        allowPicture={data.allowPicture}
        foreign={foreign}
        ceiling={user.ceiling ?? null}
      />
      <ConfirmDialog
        open={confirm}
        title={t(user.disabled ? 'resources.user.enable' : 'resources.user.disable', { nick: user.nick })}
        message={t(user.disabled ? 'resources.user.enable_confirm' : 'resources.user.disable_confirm', { nick: user.nick })}
        confirmLabel={t('resources.user.confirm')}
        cancelLabel={t('settings.cancel')}
        danger={!user.disabled}
        onCancel={() => setConfirm(false)}
        onConfirm={() => {
          toggle.submit(jsonBody({ intent: 'disable', disabled: !user.disabled }), { method: 'post', encType: 'application/json' })
          setConfirm(false)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
