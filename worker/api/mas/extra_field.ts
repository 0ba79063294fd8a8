import { Hono } from 'hono'
import * as v from 'valibot'
import { EXTRA_FIELD_ENTITIES, ExtraFieldCreate, ExtraFieldUpdate, extraFieldEntity } from '#shared/schemas/extra-field'
import { randomToken } from '../../lib/crypto'
import { crud } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { extraFieldKeyTaken, extraFieldsOf } from '../../db/extra-fields'
import { guarded } from '../../lib/guard'
import { type AppEnv, parse, pathParam } from '../context'

/** Extra fields per entity (seed 002 §3), managed on realm/extra_field. */
export const extraField = new Hono<AppEnv>()
  /** GET /mas/extra_field/form/{entity}: the active fields of an entity, for any form that saves one. */
  .get(
    '/form/:entity',
    guarded({}, async (c, auth) => {
      const entity = parse(v.picklist(EXTRA_FIELD_ENTITIES, 'validation.picklist'), pathParam(c, 'entity'))
      return c.json({ items: (await extraFieldsOf(c.env.DB, auth.realm, entity)).filter((f) => f.active) })
    }),
  )
  .route(
    '/',
    crud(extraFieldEntity, {
      permissions: {
        list: 'mas_extra_field_list',
        get: ['mas_extra_field_get', 'mas_extra_field_edit'],
        create: 'mas_extra_field_create',
        edit: 'mas_extra_field_edit',
        delete: 'mas_extra_field_delete',
      },
      create: ExtraFieldCreate,
      update: ExtraFieldUpdate,
      beforeCreate: async (c, auth, body) => {
        if (await extraFieldKeyTaken(c.env.DB, auth.realm, body.entity, body.key))
          throw apiError(409, 'conflict', 'validation.extra_key_taken', 'key', body.key)
        const now = new Date().toISOString()
        return { ...body, id: randomToken(9), realm: auth.realm, created_at: now, updated_at: now }
      },
      beforeUpdate: (_c, _auth, body) => ({ ...body, updated_at: new Date().toISOString() }),
    }),
  )
