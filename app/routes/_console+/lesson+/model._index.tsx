import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import lessonModelList from '~/lists/lesson-model'
import type { LessonModel } from '#shared/schemas/lesson/lesson'
import { loadList } from '~/server/list.server'
import { lessonDeleteAction } from './__lesson.server'

export const handle = { title: 'pages.lesson.model.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, lessonModelList)
  const p = user.permissions
  return {
    page,
    query,
    can: { create: p.lesson_model_create, edit: p.lesson_model_edit, get: p.lesson_model_get, remove: p.lesson_model_delete, publish: p.lesson_lesson_create },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => lessonDeleteAction(request, context, 'model')

export default function LessonModelListRoute() {
  const { page, query, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<LessonModel>
      spec={lessonModelList}
      page={page}
      query={query}
      title={t('pages.lesson.model.list')}
      create={can.create && can.edit ? { to: '/lesson/model/edit/new', label: t('lesson.model.create') } : null}
      canDelete={Boolean(can.remove)}
      label={(r) => r.title}
      typeToConfirm={{ prefix: 'lesson', word: t('lesson.delete_word') }}
      extraActions={(m) => (
        <>
          {can.edit ? (
            <Link className="btn btn-icon" to={`/lesson/model/edit/${m.id}`}>
              <Icon name="edit" label={t('tms.list.edit', { name: m.title })} />
            </Link>
          ) : null}
          {can.get ? (
            <Link className="btn btn-icon" to={`/lesson/model/preview/${m.id}`}>
              <Icon name="eye" label={t('tms.model.preview_of', { name: m.title })} />
            </Link>
          ) : null}
          {can.publish ? (
            <Link className="btn btn-icon" to={`/lesson/lesson/edit/new?model=${m.id}`}>
              <Icon name="send" label={t('lesson.model.publish_of', { name: m.title })} />
            </Link>
          ) : null}
        </>
      )}
    />
  )
}

export const ErrorBoundary = RouteError
