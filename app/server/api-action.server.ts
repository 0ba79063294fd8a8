import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { Submission } from '@conform-to/react'
import * as v from 'valibot'
import { DEFAULT_TIME_ZONE, encodeError, fieldName, onLine, parseForm, type ParseOptions } from '~/lib/form-kit'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmApiError, type RealmApi } from './api.server'
import type { Access } from '#shared/access'
import { apiFor, requireAccess, requireRoute, type SessionUser } from './auth.server'
import type { RealmContext } from './realm.server'
import { setFlash, type Flash } from './flash.server'

export { DEFAULT_TIME_ZONE }

/**
 * The one action of a kit form: behind the route's guard, parse the form with its schema (the same parse the
 * browser ran), call the realm API, and answer —
 * - invalid form: the submission's errors (400), typed values kept;
 * - the API refused: its error items mapped onto the form's fields (`targets.0.nick` → `targets[0].nick`, or the
 *   nearest field the form has), the rest as form errors (the kit toasts them and lists them in the summary);
 * - success: a flash message and a redirect (or `onSuccess`'s own answer).
 *
 * ```ts
 * export const action = ({ request, context }: ActionFunctionArgs) =>
 *   apiAction(request, context, { route: 'tms.genre.create', schema: GenreInput, fields: genreFields,
 *     call: (api, json) => apiData(api.entity('tms/genre').index.$post({ json })), redirect: '/tms/genre', flash: 'tms.saved' })
 * ```
 */
type ActionOptions<S extends v.GenericSchema, R, Ctx> = Omit<ParseOptions<S>, 'timeZone'> & {
  call: (api: RealmApi, value: v.InferOutput<S>, ctx: Ctx) => Promise<R>
  /** Where success goes (a function of the API's answer, e.g. the new record's edit screen). */
  redirect?: string | ((answer: R) => string)
  /** The success flash: an i18n key, or the whole message from the API's answer (with values). */
  flash?: string | ((answer: R) => Flash)
  /** Instead of flash + redirect: the route's own answer (the submission, to answer with the form kept). */
  onSuccess?: (answer: R, submission: Submission<v.InferOutput<S>, string[]>) => unknown
  /** Fields whose typed value is not sent back with the errors (a password). */
  hideFields?: string[]
}

export async function apiAction<S extends v.GenericSchema, R = unknown>(
  request: Request,
  context: AppLoadContext,
  opts: ActionOptions<S, R, { user: SessionUser; realm: RealmContext }> &
    (
      | {
          /** Manifest id of the route (its guard). */
          route: string
        }
      | {
          /** The action's own requirement, when it asks more than its screen (a list's create or edit dialog). */
          access: Access
        }
    ),
) {
  const { api, realm, user } = 'access' in opts ? await requireAccess(request, context, opts.access) : await requireRoute(request, context, opts.route)
  return answerForm(request, api, realm.config?.time_zone ?? DEFAULT_TIME_ZONE, { user, realm }, opts)
}

/**
 * `apiAction` for a page outside the console's guard (the sandbox provider's checkout, which the buyer reaches by
 * the intent's secret): the same parse, call and answer, with the visitor's own API client (`api`: another
 * session's client, such as the mobile-web session's).
 */
export async function publicApiAction<S extends v.GenericSchema, R = unknown>(
  request: Request,
  context: AppLoadContext,
  opts: ActionOptions<S, R, object>,
  api?: RealmApi,
) {
  return answerForm(request, api ?? (await apiFor(request, context)), DEFAULT_TIME_ZONE, {}, opts)
}

async function answerForm<S extends v.GenericSchema, R, Ctx>(request: Request, api: RealmApi, timeZone: string, ctx: Ctx, opts: ActionOptions<S, R, Ctx>) {
  const formData = await request.formData()
  const submission = parseForm(formData, { ...opts, timeZone })
  if (submission.status !== 'success') return data(submission.reply({ hideFields: opts.hideFields }), { status: submission.status === 'error' ? 400 : 200 })
  let answer: R
  try {
    answer = await opts.call(api, submission.value, ctx)
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    const items = err.errors.map((e) => onLine(e, formData, opts.fields))
    return data(submission.reply({ ...placeErrors(items, submission.payload), hideFields: opts.hideFields }), { status: err.status })
  }
  if (opts.onSuccess) return opts.onSuccess(answer, submission)
  const to = typeof opts.redirect === 'function' ? opts.redirect(answer) : (opts.redirect ?? new URL(request.url).pathname)
  const flash = typeof opts.flash === 'function' ? opts.flash(answer) : opts.flash ? ({ kind: 'success', message: opts.flash } as const) : null
  throw redirect(to, { headers: flash ? { 'Set-Cookie': await setFlash(flash) } : undefined })
}

/**
 * The API's error items on the form: each on the field its path names, or the nearest enclosing field the form
 * posted (`options.2` → `options`); items of no posted field (headers, the record as a whole) are form errors.
 */
export function placeErrors(items: ErrorItem[], payload: Record<string, unknown>) {
  const names = new Set<string>()
  const collect = (value: unknown, name: string) => {
    if (name) names.add(name)
    if (Array.isArray(value)) value.forEach((item, i) => collect(item, `${name}[${i}]`))
    else if (value && typeof value === 'object') for (const [k, item] of Object.entries(value)) collect(item, name ? `${name}.${k}` : k)
  }
  collect(payload, '')
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  for (const item of items) {
    let name = item.field && !item.field.startsWith('x-') ? fieldName(item.field) : ''
    while (name && !names.has(name)) name = name.replace(/(\.[^.[\]]+|\[\d+\])$/, '') === name ? '' : name.replace(/(\.[^.[\]]+|\[\d+\])$/, '')
    if (name) (fieldErrors[name] ??= []).push(encodeError(item))
    else formErrors.push(encodeError(item))
  }
  return { fieldErrors, formErrors }
}

/**
 * A non-form action's API calls (a list's delete or toggle, a dialog posting JSON): `run`'s answer, or the API's
 * refusal as `{ ok: false, errors, ...failed }` with the API's status (the screen toasts the items). Anything else —
 * a redirect, a bug — goes on.
 *
 * ```ts
 * return apiResult(async () => {
 *   await api.asset[':id'].$delete({ param: { id } })
 *   return { ok: true, errors: [] as ErrorItem[] }
 * })
 * ```
 */
export async function apiResult<T, E extends object = Record<never, never>>(run: () => Promise<T>, failed?: E) {
  try {
    return await run()
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    return data({ ok: false as const, ...(failed as E), errors: err.errors }, { status: err.status })
  }
}

/**
 * A resource route's answer sent as it is: the kit's and apiResult's `data()` answers become JSON responses with their
 * status (Remix would send a resource route's `data()` as 200).
 */
export function resourceResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer
  const wrapped = answer as { type?: string; data?: unknown; init?: ResponseInit | null }
  if (wrapped && typeof wrapped === 'object' && wrapped.type === 'DataWithResponseInit') return Response.json(wrapped.data, wrapped.init ?? undefined)
  return Response.json(answer)
}

/** A resource route's refusal of its input: 400 with one error item (`cause: invalid`). */
export const resourceInvalid = (field: string, message: string) =>
  Response.json({ ok: false, errors: [{ field, cause: 'invalid', value: null, message }] satisfies ErrorItem[] }, { status: 400 })

/** A resource route's JSON body checked with `schema`: its output, or the 400 answer to send (not JSON, or invalid). */
export async function resourceJson<S extends v.GenericSchema>(request: Request, schema: S): Promise<{ output: v.InferOutput<S> } | { refused: Response }> {
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    return { refused: resourceInvalid('data', 'validation.json') }
  }
  const body = v.safeParse(schema, raw)
  if (!body.success) return { refused: resourceInvalid(String(body.issues[0]?.path?.[0]?.key ?? 'data'), body.issues[0]?.message ?? 'validation.invalid') }
  return { output: body.output }
}
