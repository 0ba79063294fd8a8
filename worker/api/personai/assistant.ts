import { Hono } from 'hono'
import {
  AssistantCreate,
  AssistantUpdate,
  DEFAULT_AVATARS,
  DEFAULT_VOICES,
  HELPERS,
  assistantEntity,
  avatarUrl,
  type Assistant,
  type AssistantDefaults,
} from '#shared/schemas/assistant'
import { persistFileStatement } from '../../db/files'
import { ASSISTANT_PERSONA_NAME_COLUMN, clearOtherStandardStatement, personaName } from '../../db/assistants'
import type { Auth } from '../../db/sessions'
import { born, crud, stamp } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import type { AppEnv, Ctx } from '../context'
import { PERSONA_FLAGS, personaAnyAccess } from './common'
import { personaImage } from './persona'

/**
 * /personai/assistant: assistants (seed 002 §3 "Assistant", §4; issue 16 "Assistants"), every endpoint needing the
 * realm's `persona_enabled` and its permission (`persona_assistant_*`). An assistant is built on a persona of the
 * realm chosen at creation; the persona cannot change afterwards (409 persona_locked), and a persona in use cannot
 * be deleted. The voice defaults to the first default voice (female, minimax); setting `standard` on one assistant
 * clears it on the realm's others in the same batch. `GET /defaults` lists the default voices, avatars and helpers.
 */
type Body = { name: string; image_file_id: string; avatar: string; helper: string; voice: unknown; animations: unknown; standard: boolean }

async function assistantValues(c: Ctx, auth: Auth, body: Body, existing?: Pick<Assistant, 'image_file_id'>): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {
    name: body.name,
    avatar: body.avatar,
    helper: body.helper,
    voice: body.voice,
    animations: body.animations,
    standard: body.standard,
  }
  if (body.image_file_id !== (existing?.image_file_id ?? '')) {
    values.image_file_id = body.image_file_id
    values.image_url = body.image_file_id ? await personaImage(c, auth, body.image_file_id) : ''
  }
  return values
}

const assistantCrud = crud(assistantEntity, {
  permissions: {
    list: 'persona_assistant_list',
    get: ['persona_assistant_get', 'persona_assistant_edit'],
    create: 'persona_assistant_create',
    edit: 'persona_assistant_edit',
    delete: 'persona_assistant_delete',
  },
  flags: PERSONA_FLAGS,
  create: AssistantCreate,
  update: AssistantUpdate,
  computed: { persona_name: ASSISTANT_PERSONA_NAME_COLUMN },
  beforeCreate: async (c, auth, body) => {
    if (!(await personaName(c.env.DB, auth.realm, body.persona_id))) throw apiError(422, 'not_found', 'persona.not_found', 'persona_id', body.persona_id)
    return { ...(await assistantValues(c, auth, body)), persona_id: body.persona_id, ...born(auth) }
  },
  beforeUpdate: async (c, auth, body, existing: Omit<Assistant, 'persona_name'>) => {
    // The persona behind an assistant is chosen once (seed 002 §4).
    if (body.persona_id !== undefined && body.persona_id !== existing.persona_id)
      throw apiError(409, 'persona_locked', 'validation.assistant.persona_locked', 'persona_id', existing.persona_id)
    return { ...(await assistantValues(c, auth, body, existing)), ...stamp(auth) }
  },
  statements: (c, auth, write) => {
    if (write.action === 'delete') return []
    const out: D1PreparedStatement[] = []
    const image = write.values.image_file_id
    if (typeof image === 'string' && image) out.push(persistFileStatement(c.env.DB, auth.realm, image))
    if (write.values.standard === true) out.push(clearOtherStandardStatement(c.env.DB, auth.realm, write.id))
    return out
  },
  expand: async (c, row) => ({ ...row, persona_name: await personaName(c.env.DB, String(row.realm), String(row.persona_id)) }),
})

export const DEFAULTS: AssistantDefaults = {
  voices: [...DEFAULT_VOICES],
  default_voice: DEFAULT_VOICES[0].id,
  avatars: DEFAULT_AVATARS.map((id) => ({ id, url: avatarUrl(id) })),
  helpers: HELPERS.map((h) => ({ ...h })),
}

export const assistant = new Hono<AppEnv>()
  /** GET /personai/assistant/defaults: the default voices (the first is the default, female), avatars and helpers. */
  .get(
    '/defaults',
    guarded(personaAnyAccess('persona_assistant_list', 'persona_assistant_get', 'persona_assistant_create', 'persona_assistant_edit'), (c) => c.json(DEFAULTS)),
  )
  .route('/', assistantCrud)
