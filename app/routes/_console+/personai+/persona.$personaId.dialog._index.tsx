import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { DataTable } from '~/components/ui/data-table'
import { DeleteConfirm } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import type { PersonaDialog } from '#shared/schemas/persona'
import { deleteRow } from '~/server/entity-form.server'
import { requireRoute } from '~/server/auth.server'
import { personaDialogs } from './__dialog.server'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.persona.dialog.list' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'persona.dialog.list')
  const { persona, dialogs } = await personaDialogs(api, params.personaId ?? '')
  const p = user.permissions
  return { persona, dialogs, canCreate: p.persona_dialog_create, canEdit: p.persona_dialog_edit, canDelete: p.persona_dialog_delete }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  deleteRow(request, context, 'persona.dialog.list', (api, dialogId) =>
    api.personai.persona[':personaId'].dialog[':dialogId'].$delete({ param: { personaId: params.personaId ?? '', dialogId } }),
  )

/**
 * A persona's dialogs (seed 002 §2): each with its type, stage (§4) and the problems the persona's save refuses —
 * an unreachable dialog among them — shown on the list.
 */
export default function DialogListRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; errors?: ErrorItem[] }>()
  const [removing, setRemoving] = useState<PersonaDialog | null>(null)
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.errors?.length)
      toast.push({ kind: 'error', message: fetcher.data.errors.map((e) => errorText(t, e)).join(' ') })
  }, [fetcher.state, fetcher.data, toast, t])
  const base = `/personai/persona/${encodeURIComponent(d.persona.id)}/dialog`
  const problems = d.dialogs.reduce((n, x) => n + x.problems.length, 0)
  return (
    <>
      <PageHeader
        title={`${t('pages.persona.dialog.list')}: ${d.persona.name}`}
        back={`/personai/persona/edit/${encodeURIComponent(d.persona.id)}#persona-dialogs`}
      >
        {d.canCreate ? (
          <Link to={`${base}/create`} className="btn btn-primary">
            <Icon name="plus" /> {t('pages.persona.dialog.create')}
          </Link>
        ) : null}
      </PageHeader>
      {problems ? (
        <p className="error" role="alert">
          {t('persona.editor.dialogs.problems', { count: problems })}
        </p>
      ) : null}
      <DataTable
        rows={d.dialogs}
        empty={t('persona.dialog.empty')}
        emptyClass="empty card"
        label={t('pages.persona.dialog.list')}
        columns={[
          ...['name', 'type', 'questions'].map((c) => t(`persona.dialog.fields.${c}`)),
          t('persona.editor.knowledge.stage'),
          t('persona.dialog.problems'),
          t('persona.editor.knowledge.actions'),
        ]}
      >
        {(x) => (
          <tr key={x.id} className={x.problems.length ? 'row-invalid' : undefined}>
            <td>{x.name || '—'}</td>
            <td>{t(`persona.dialog.type.${x.type}`)}</td>
            <td>{x.questions.join(' · ') || '—'}</td>
            <td>{t(`persona.stage.${x.stage}`)}</td>
            <td>
              {x.problems.length ? (
                <ul className="error plain-list">
                  {x.problems.map((e, i) => (
                    <li key={i}>{errorText(t, e)}</li>
                  ))}
                </ul>
              ) : (
                '—'
              )}
            </td>
            <td>
              {d.canEdit && x.stage !== 'to_delete' ? (
                <Link to={`${base}/edit/${encodeURIComponent(x.id)}`} className="btn btn-small">
                  <Icon name="edit" /> {t('persona.dialog.edit')}
                </Link>
              ) : null}{' '}
              {d.canDelete && x.stage !== 'to_delete' ? (
                <button type="button" className="btn btn-small" onClick={() => setRemoving(x)}>
                  <Icon name="trash" /> {t('persona.editor.knowledge.remove_short')}
                </button>
              ) : null}
            </td>
          </tr>
        )}
      </DataTable>
      <p className="hint">{t('persona.dialog.save_hint')}</p>
      <DeleteConfirm
        item={removing}
        prefix="persona.dialog"
        values={{ name: removing?.name || t(`persona.dialog.type.${removing?.type ?? 'conversation'}`) }}
        onConfirm={() => {
          if (removing) fetcher.submit({ id: removing.id }, { method: 'post' })
        }}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
