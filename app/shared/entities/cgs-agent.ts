import type * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { AgentInput } from '../schemas/lesson/genesis'
import { STAMPS, definePlainEntity } from './define'

export type Agent = v.InferOutput<typeof AgentInput> & Stamped

/** Agent (seed 001 §3): name, tags, public flag and target audience; content generation writes for its audience. */
export const agentEntity = definePlainEntity<Agent>({
  name: 'cgs_agent',
  table: 'cgs_agent',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: AgentInput,
  permission: 'cgs_agent',
  api: 'cgs/agent',
  route: { id: 'cgs.agent', path: '/cgs/agent', param: 'agentId', unsaved: true },
  labelField: 'name',
  saved: 'tms.saved',
  fields: {
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    tags: { type: 'json', list: true, form: { kind: 'list', hint: 'cgs.tags_hint' } },
    is_public: { type: 'bool', list: true, filter: 'eq', searchBar: true, column: { width: 110, format: 'check' }, form: { kind: 'checkbox' } },
    target_audience: { type: 'text', search: true, list: true, column: { ellipsis: true }, form: { kind: 'textarea' } },
    ...STAMPS,
  },
  defaultOrder: 'name',
})
export default agentEntity
