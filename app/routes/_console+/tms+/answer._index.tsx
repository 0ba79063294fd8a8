import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { AnswerStatus, CORRECTABLE, DeliveryBadge } from '~/components/tms/answer-badges'
import answerList, { type AnswerItem } from '~/lists/tms-answer'
import { withFilterOptions } from '~/lib/list-format'
import type { Room } from '#shared/schemas/room'
import type { Task } from '#shared/schemas/tms/task'
import { apiData } from '~/server/api.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.answer.list' }

/** Most tasks and rooms offered as filter options (the newest tasks, the rooms by name). */
const OPTIONS = 1000

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, api } = await loadList(request, context, answerList)
  const p = user.permissions
  const [tasks, rooms] = await Promise.all([
    p.tms_task_list_by_target || p.tms_task_list_others
      ? apiData(api.entity<Task>('tms/task').index.$get({ query: { limit: OPTIONS } })).then((r) => r.items)
      : [],
    p.room_room_list ? apiData(api.entity<Room>('room/room').index.$get({ query: { limit: OPTIONS, order: 'name' } })).then((r) => r.items) : [],
  ])
  return {
    page,
    query,
    options: { task_id: tasks.map((x) => ({ value: x.id, label: x.title })), room_id: rooms.map((r) => ({ value: r.id, label: r.name })) },
    canCorrect: Boolean(p.tms_task_correct),
  }
}

/** `tms/answer`: the students' answers across the tasks this teacher may see, each linking to its correction. */
export default function AnswerListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const title = t('pages.tms.answer.list')
  const spec = withFilterOptions(answerList, data.options)
  const withBadges = {
    ...spec,
    columns: spec.columns.map((c) =>
      c.id === 'status'
        ? { ...c, render: (row: AnswerItem) => <AnswerStatus status={row.status} /> }
        : c.id === 'delivery'
          ? { ...c, render: (row: AnswerItem) => <DeliveryBadge delivery={row.delivery} /> }
          : c,
    ),
  }
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      <EntityTable<AnswerItem>
        spec={withBadges}
        page={data.page as typeof data.page & { items: AnswerItem[] }}
        query={data.query}
        title={title}
        rowActions={
          data.canCorrect
            ? (row) =>
                !CORRECTABLE.includes(row.status) ? null : (
                  <Link className="btn btn-icon" to={`/tms/task/${row.task_id}/${row.id}/correct`}>
                    <Icon name="edit" label={t('correct.open', { name: row.student_name || row.nick, task: row.task_title })} />
                  </Link>
                )
            : undefined
        }
      />
    </>
  )
}

export const ErrorBoundary = RouteError
