import { ObjectiveInput, OBJECTIVE_CRITERIA, OBJECTIVE_ENTITIES, OBJECTIVE_UNITS, type Objective } from '../schemas/achievement'
import { STAMPS, definePlainEntity } from './define'

const options = (values: readonly string[], group: string) => values.map((x) => ({ value: x, label: `achievement.${group}.${x}` }))

/**
 * Objective (seed 001 §3): what a goal measures. Refused changes (§4): one used by a published goal is neither
 * updated nor removed (worker/api/entities.ts RULES `achievement_objective`, usage kind `objective`).
 */
export const objectiveEntity = definePlainEntity<Objective>({
  name: 'achievement_objective',
  table: 'achievement_objective',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: ObjectiveInput,
  permission: 'achievement_objective',
  api: 'achievement/objective',
  route: { id: 'objective', path: '/achievement/objective', param: 'objectiveId', unsaved: true },
  labelField: 'title',
  saved: 'tms.saved',
  inUse: 'objective',
  fields: {
    title: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    entity: {
      type: 'text',
      list: true,
      filter: 'eq',
      searchBar: true,
      column: { width: 140, format: 'option' },
      form: { kind: 'select', options: options(OBJECTIVE_ENTITIES, 'entity') },
    },
    criteria: {
      type: 'text',
      list: true,
      column: { width: 140, format: 'option' },
      form: { kind: 'select', options: options(OBJECTIVE_CRITERIA, 'criteria') },
    },
    unit: { type: 'text', list: true, column: { width: 140, format: 'option' }, form: { kind: 'select', options: options(OBJECTIVE_UNITS, 'unit') } },
    percent: {
      type: 'real',
      sort: true,
      list: true,
      column: { align: 'right', width: 110, format: 'percent' },
      form: { kind: 'number', step: '0.01', min: 0.01, max: 1, required: true, hint: 'achievement.percent_hint' },
    },
    ...STAMPS,
  },
  defaultOrder: 'title',
})
export default objectiveEntity
