import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import { withFilterOptions } from '~/lib/list-format'
import lessonList from '~/lists/lesson-lesson'
import type { Lesson } from '#shared/schemas/lesson/lesson'
import { lessonDeleteAction, listWithRooms } from './__lesson.server'

export const handle = { title: 'pages.lesson.lesson.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, rooms } = await listWithRooms(request, context, lessonList, 'lesson.lesson.list')
  const p = user.permissions
  return {
    page,
    query,
    rooms,
    can: { edit: p.lesson_lesson_edit, get: p.lesson_lesson_get, remove: p.lesson_lesson_delete },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => lessonDeleteAction(request, context, 'lesson')

export default function LessonListRoute() {
  const { page, query, rooms, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Lesson>
      spec={withFilterOptions(lessonList, { room: rooms })}
      page={page}
      query={query}
      title={t('pages.lesson.lesson.list')}
      canDelete={Boolean(can.remove)}
      label={(r) => r.title}
      typeToConfirm={{ prefix: 'lesson', word: t('lesson.delete_word') }}
      extraActions={(l) => (
        <>
          {can.edit ? (
            <Link className="btn btn-icon" to={`/lesson/lesson/edit/${l.id}`}>
              <Icon name="edit" label={t('tms.list.edit', { name: l.title })} />
            </Link>
          ) : null}
          {can.get ? (
            <Link className="btn btn-icon" to={`/lesson/lesson/preview/${l.id}`}>
              <Icon name="eye" label={t('tms.model.preview_of', { name: l.title })} />
            </Link>
          ) : null}
        </>
      )}
    />
  )
}

export const ErrorBoundary = RouteError
