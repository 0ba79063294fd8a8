import { Hono } from 'hono'
import { guarded } from '../../lib/guard'
import { type AppEnv } from '../context'
import { register } from '../registration'

/** /mas/registration: sign-in with a provider token (Google), employee token, or mobile revalidation. */
export const masRegistration = new Hono<AppEnv>().post(
  '/',
  guarded('public', (c) => register(c)),
)
