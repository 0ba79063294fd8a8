import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import roomList from '~/lists/room'
import roomGroupList from '~/lists/room-group'
import type { Room, RoomGroup } from '#shared/schemas/room'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'
import { withFilterOptions } from '~/lib/list-format'
import { categoryTree, parentOptions } from './__category.server'

export const handle = { title: 'pages.room.list' }

const groupsTab = (request: Request) => new URL(request.url).searchParams.get('tab') === 'groups'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const groups = groupsTab(request)
  const { page, query, user, api } = groups ? await loadList(request, context, roomGroupList) : await loadList(request, context, roomList)
  const p = user.permissions
  const readsCategories = !groups && (p.room_category_list || p.room_category_create || p.room_category_edit)
  const categories = readsCategories ? parentOptions(await categoryTree(api)).map((o) => ({ value: o.id, label: o.label })) : []
  return { groups, page, query, categories, canCreate: p.room_room_create, canEdit: p.room_room_edit, canDelete: p.room_room_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'room.list', (api, id) =>
    groupsTab(request) ? api.room.group[':id'].$delete({ param: { id } }) : api.room.room[':id'].$delete({ param: { id } }),
  )

export default function RoomListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const tabs = (
    <nav className="link-tabs" aria-label={t('room.tabs')}>
      <Link to="/room" className="link-tab" aria-current={data.groups ? undefined : 'page'}>
        {t('room.tab.rooms')}
      </Link>
      <Link to="/room?tab=groups" className="link-tab" aria-current={data.groups ? 'page' : undefined}>
        {t('room.tab.groups')}
      </Link>
    </nav>
  )
  if (data.groups) {
    return (
      <CrudList<RoomGroup>
        spec={roomGroupList}
        page={data.page as typeof data.page & { items: RoomGroup[] }}
        query={data.query}
        title={t('room.groups')}
        create={data.canCreate ? { to: '/room/create?kind=group', label: t('room.group.create') } : null}
        editTo={data.canEdit ? (row) => `/room/edit/${row.id}?kind=group` : null}
        canDelete={data.canDelete}
        label={(row) => row.name}
      >
        {tabs}
      </CrudList>
    )
  }
  return (
    <CrudList<Room>
      spec={withFilterOptions(roomList, { category_id: data.categories })}
      page={data.page as typeof data.page & { items: Room[] }}
      query={data.query}
      title={t('pages.room.list')}
      create={data.canCreate ? { to: '/room/create', label: t('pages.room.create') } : null}
      editTo={data.canEdit ? (row) => `/room/edit/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    >
      {tabs}
    </CrudList>
  )
}

export const ErrorBoundary = RouteError
