import { Hono } from 'hono'
import { guardedJson } from '../../lib/guard'
import { type AppEnv } from '../context'
import { Registration, register } from '../registration'

/** /mas/registration: sign-in with a provider token (Google), employee token, or mobile revalidation. */
export const masRegistration = new Hono<AppEnv>().post(
  '/',
  guardedJson('public', Registration, (c, _auth, body) => register(c, body)),
)
