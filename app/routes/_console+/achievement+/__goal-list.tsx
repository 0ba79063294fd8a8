import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { Icon } from '~/components/ui/icon'
import { goalList } from '~/lists/achievement-goal'
import type { Goal } from '#shared/schemas/achievement'
import type { goalListLoader } from './__goal.server'

/** Goal models or published goals: the shared table, a link to each goal's screen. */
export function GoalList() {
  const { type, page, query, can } = useLoaderData<Awaited<ReturnType<typeof goalListLoader>>>()
  const { t } = useTranslation()
  return (
    <CrudList<Goal>
      spec={goalList(type)}
      page={page as never}
      query={query}
      title={t(type === 'model' ? 'pages.goal.model' : 'pages.goal.list')}
      create={can.create ? { to: '/achievement/goal/create', label: t('achievement.create_goal') } : null}
      canDelete={can.remove}
      label={(r) => r.title}
      extraActions={(g) => (
        <Link className="btn btn-icon" to={`/achievement/goal/edit/${g.id}`}>
          <Icon name="edit" label={t('tms.list.edit', { name: g.title })} />
        </Link>
      )}
    />
  )
}
