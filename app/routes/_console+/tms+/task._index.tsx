import type { Category } from '#shared/schemas/tms/category'
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData } from '~/server/api.server'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { withFilterOptions } from '~/lib/list-format'
import taskList from '~/lists/tms-task'
import type { Task } from '#shared/schemas/tms/task'
import { requireRoute } from '~/server/auth.server'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.task.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, taskList)
  const { api } = await requireRoute(request, context, 'tms.task.list')
  const p = user.permissions
  const [rooms, categories] = await Promise.all([
    p.room_room_list ? apiData(api.room.room.$get({ query: { limit: 1000 } })).then((r) => r.items) : [],
    p.tms_category_list ? apiData(api.entity<Category>('tms/category').index.$get({ query: { limit: 1000 } })).then((r) => r.items) : [],
  ])
  return {
    page,
    query,
    rooms: rooms.map((r) => ({ label: r.name, value: r.id })),
    categories: categories.filter((c) => c.selectable).map((c) => ({ label: c.name, value: c.id })),
    can: { get: p.tms_task_get, remove: p.tms_task_delete, token: p.tms_token_generate },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'tms.task.list', (api, id) => api.tms.task[':id'].$delete({ param: { id } }))

export default function TaskListRoute() {
  const { page, query, rooms, categories, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const spec = withFilterOptions(taskList, { room: rooms, category: categories })
  const withBadges = {
    ...spec,
    columns: spec.columns.map((c) =>
      c.id === 'status'
        ? { ...c, render: (row: Task) => <span className={`badge status-${row.status}`}>{t(`tms.status.${row.status}`)}</span> }
        : c.id === 'model_version'
          ? {
              ...c,
              render: (row: Task) =>
                row.newer_version ? (
                  <span className="badge badge-warning" title={t('tms.task.update_offer')}>
                    {t('tms.task.version_newer', { version: String(row.model_version), latest: String(row.latest_version) })}
                  </span>
                ) : (
                  String(row.model_version)
                ),
            }
          : c,
    ),
  }
  return (
    <CrudList<Task>
      spec={withBadges}
      page={page}
      query={query}
      title={t('pages.tms.task.list')}
      canDelete={can.remove}
      label={(row) => row.title}
      extraActions={(row) => (
        <>
          {can.get ? (
            <Link className="btn btn-icon" to={`/tms/task/detail/${row.id}`}>
              <Icon name="eye" label={t('tms.task.detail_of', { name: row.title })} />
            </Link>
          ) : null}
        </>
      )}
    />
  )
}

export const ErrorBoundary = RouteError
