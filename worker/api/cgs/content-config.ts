import { Hono } from 'hono'
import { ContentConfigInput, GenesisSettingsInput, type ContentConfigInput as Input } from '#shared/schemas/lesson/genesis'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import {
  agentExists,
  clearOtherDefaults,
  contentConfigEntity,
  genesisSettings,
  linkedLessons,
  mergeSettings,
  saveSettingsStatement,
  visibleConfigs,
} from '../../db/genesis'
import { crud } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import type { Auth } from '../../db/sessions'
import type { AppEnv, Ctx } from '../context'

/**
 * Content configurations (seed 001 §3 "Content config"; `cgs_content_config_*`): the generic CRUD over the realm's
 * configurations a user may see (public ones and their own), the options checked by the type's schema, the agent
 * checked in the realm, one default-selected configuration per type (saving one as default clears the others in the
 * same batch), the type fixed once created; answers carry the agent's name and the lessons generated with it.
 */
async function checkAgent(c: Ctx, auth: Auth, body: Input) {
  if (body.agent_id && !(await agentExists(c.env.DB, auth.realm, body.agent_id)))
    throw apiError(422, 'agent_not_found', 'cgs.error.agent_not_found', 'agent_id', body.agent_id)
}

export const contentConfig = crud(contentConfigEntity, {
  permissions: {
    list: ['cgs_content_config_list', 'genesis_lesson_model_generate', 'genesis_model_generate'],
    get: ['cgs_content_config_get', 'cgs_content_config_edit'],
    create: 'cgs_content_config_create',
    edit: 'cgs_content_config_edit',
    delete: 'cgs_content_config_delete',
  },
  scope: (_c, auth) => visibleConfigs(auth.realm, auth.nick),
  create: ContentConfigInput,
  update: ContentConfigInput,
  beforeCreate: async (c, auth, body) => {
    await checkAgent(c, auth, body)
    const at = nowIso()
    return { ...body, id: newId(), realm: auth.realm, created_by: auth.nick, created_at: at, updated_at: at, updated_by: auth.nick }
  },
  beforeUpdate: async (c, auth, body, existing) => {
    if (body.type !== existing.type) throw apiError(422, 'type_changed', 'cgs.error.type_changed', 'type', body.type)
    await checkAgent(c, auth, body)
    return { ...body, updated_at: nowIso(), updated_by: auth.nick }
  },
  statements: (c, auth, write) =>
    write.action !== 'delete' && write.values.default_selected === true ? [clearOtherDefaults(c.env.DB, auth.realm, String(write.values.type), write.id)] : [],
  expand: async (c, row) => {
    const agent = row.agent_id ? await agentExists(c.env.DB, String(row.realm), String(row.agent_id)) : null
    return { ...row, agent_name: agent?.name ?? null, linked_lessons: await linkedLessons(c.env.DB, String(row.realm), String(row.id)) }
  },
})

/**
 * The realm's content-generation settings (seed 001 §3): `GET /cgs/settings` (a configuration list or generation
 * permission), `PUT` (`mas_realm_edit`, as the realm's other settings): any subset, merged and audited.
 */
export const settings = new Hono<AppEnv>()
  .get(
    '/',
    guarded({ any: ['cgs_content_config_list', 'genesis_lesson_model_generate', 'genesis_model_generate', 'mas_realm_edit'] }, async (c, auth) =>
      c.json(await genesisSettings(c.env.DB, auth.realm)),
    ),
  )
  .put(
    '/',
    guardedJson({ all: ['mas_realm_edit'] }, GenesisSettingsInput, async (c, auth, body) => {
      const before = await genesisSettings(c.env.DB, auth.realm)
      const after = mergeSettings(before, body)
      await runBatch(c.env.DB, [
        saveSettingsStatement(c.env.DB, auth.realm, after, nowIso(), auth.nick),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'realm_genesis',
          entityId: auth.realm,
          before: { ...before },
          after: { ...after },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(after)
    }),
  )
