import { GenreInput, genreEntity } from '#shared/schemas/tms/genre'
import { crud } from '../../lib/entity'
import { created, refuseInUse, updated } from './taxonomy'

export const genre = crud(genreEntity, {
  permissions: {
    list: 'tms_genre_list',
    get: ['tms_genre_get', 'tms_genre_edit'],
    create: 'tms_genre_create',
    edit: 'tms_genre_edit',
    delete: 'tms_genre_delete',
  },
  create: GenreInput,
  update: GenreInput,
  beforeCreate: (_c, auth, body) => ({ ...body, ...created(auth) }),
  beforeUpdate: (_c, auth, body) => ({ ...body, ...updated(auth) }),
  beforeDelete: (c, auth, existing) => refuseInUse(c, auth, 'genre', existing.id),
})
