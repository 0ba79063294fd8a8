import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Goal } from '#shared/schemas/achievement'

/** Goal models (`achievement/goal/model`) or published goals (`achievement/goal/goal`): issue 19. */
export function goalList(type: 'model' | 'goal'): ListSpec<Goal> {
  return {
    name: 'achievement_goal',
    apiPath: `achievement/goal?type=${type}`,
    route: type === 'model' ? 'goal.model' : 'goal.list',
    rowId: (r) => r.id,
    columns: [
      { id: 'title', label: 'achievement.field.title', sorting: true, ellipsis: true, tooltip: true },
      ...(type === 'model'
        ? [{ id: 'published_count' as const, label: 'achievement.field.published_count', align: 'right' as const, width: 120 }]
        : [
            {
              id: 'shown_status' as const,
              label: 'achievement.field.status',
              width: 130,
              format: (v: unknown, _r: Goal, t: (k: string) => string) => t(`achievement.status.${String(v)}`),
            },
            { id: 'start_date' as const, label: 'achievement.field.start_date', sorting: true, width: 120 },
            { id: 'end_date' as const, label: 'achievement.field.end_date', width: 120 },
            {
              id: 'period' as const,
              label: 'achievement.field.period',
              width: 120,
              format: (v: unknown, r: Goal, t: (k: string) => string) => (r.recurrent ? t(`achievement.period.${String(v)}`) : ''),
            },
          ]),
      { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: when, time: true },
    ],
    search: [{ field: 'title', type: 'text', label: 'achievement.field.title' }],
  }
}
export default goalList('model')
