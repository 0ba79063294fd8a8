import { data, redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { ErrorItem } from '#shared/schemas/error'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { setFlash } from '~/server/flash.server'
import { zonedToIso } from '~/lib/zoned-time'
import { LOCALE_FIELD, readDateTime } from '~/lib/form-kit'

/**
 * The task detail's actions (behind the detail route's guard; the API checks tms_task_edit or tms_task_delete):
 * pause and resume (scheduling off and on), accept the newer model version, change the expiry, delete; and the restore
 * of a student's activity timer (tms_task_correct).
 */
export async function taskDetailAction(request: Request, context: AppLoadContext, taskId: string) {
  const { api, realm } = await requireRoute(request, context, 'tms.task.detail')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const task = { param: { id: taskId } }
  return apiResult(
    async () => {
      if (intent === 'delete') {
        await api.tms.task[':id'].$delete(task)
        throw redirect('/tms/task', { headers: { 'Set-Cookie': await setFlash({ kind: 'success', message: 'tms.task.deleted' }) } })
      }
      if (intent === 'restore_timer') {
        // The API checks tms_task_correct, and refuses a delivered answer or a student who never opened the task.
        await api.tms.answer.task[':taskId'].start[':nick'].$delete({ param: { taskId, nick: String(form.get('nick') ?? '') } })
        return { ok: true, intent, errors: [] as ErrorItem[] }
      }
      const bodies: Record<string, () => Record<string, unknown>> = {
        pause: () => ({ scheduling_enabled: false }),
        resume: () => ({ scheduling_enabled: true }),
        update_version: () => ({ update_version: true }),
        // Typed in the page language's format and read in the realm's zone; an unreadable text goes on as typed, and the
        // API's date rule names it ('validation.date').
        expire: () => {
          const typed = String(form.get('expire_at') ?? '')
          const local = readDateTime(typed, String(form.get(LOCALE_FIELD) ?? 'pt-BR'))
          return { expire_at: (local && zonedToIso(local, realm.config?.time_zone ?? DEFAULT_TIME_ZONE)) ?? typed }
        },
      }
      if (!bodies[intent])
        return data({ ok: false, errors: [{ field: 'intent', cause: 'invalid', value: intent, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
      await api.tms.task[':id'].$put({ ...task, json: bodies[intent]() })
      return { ok: true, intent, errors: [] as ErrorItem[] }
    },
    { intent },
  )
}
