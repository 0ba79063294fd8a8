import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SESSION_JUSTIFICATION_MAX, sessionMoveAllowed } from '#shared/schemas/session'
import type { ErrorItem } from '#shared/schemas/error'
import { Dialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'

type Result = { ok: boolean; intent?: string; errors: ErrorItem[] }

/**
 * The session detail's lifecycle buttons (issue 15): Edit, Publish, Unpublish and Rerecord, each shown only when the
 * user holds its permission and the session's status allows it (`SESSION_MOVES`). Rerecord opens a dialog asking the
 * justification. The outcome is announced in a status line; a refusal in an alert (in the dialog for a rerecord).
 */
export function SessionLifecycle({
  session,
  can,
}: {
  session: { id: string; status: string; video_status: string }
  can: { edit: boolean; rerecord: boolean }
}) {
  const { t } = useTranslation()
  const result = useActionData<Result>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const [asking, setAsking] = useState(false)
  const [shown, setShown] = useState<Result | null>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  // The dialog opens on the justification (after Dialog's own effect opened it: showModal focuses its first button).
  useEffect(() => {
    if (asking) field.current?.focus()
  }, [asking])
  useEffect(() => {
    if (!result) return
    setShown(result)
    if (result.ok || result.intent !== 'rerecord') setAsking(false)
  }, [result])
  const errors = shown && !shown.ok ? shown.errors.map((e) => errorText(t, e)) : []
  const publish = can.edit && sessionMoveAllowed('publish', session)
  const unpublish = can.edit && sessionMoveAllowed('unpublish', session)
  const rerecord = can.rerecord && sessionMoveAllowed('rerecord', session)
  if (!can.edit && !rerecord) return null
  return (
    <section className="card" aria-labelledby="session-actions">
      <h2 id="session-actions">{t('session.life.actions')}</h2>
      <div className="toolbar-actions">
        {can.edit ? (
          <Link to={`/session/edit/${session.id}`} className="btn">
            <Icon name="edit" /> {t('session.life.edit')}
          </Link>
        ) : null}
        {publish || unpublish ? (
          <Form method="post" onSubmit={() => setShown(null)}>
            <button className="btn btn-primary" name="intent" value={publish ? 'publish' : 'unpublish'} disabled={busy}>
              <Icon name={publish ? 'eye' : 'eyeOff'} /> {t(publish ? 'session.life.publish' : 'session.life.unpublish')}
            </button>
          </Form>
        ) : null}
        {rerecord ? (
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy}
            onClick={() => {
              setShown(null)
              setAsking(true)
            }}
          >
            <Icon name="video" /> {t('session.life.rerecord')}
          </button>
        ) : null}
      </div>
      {shown?.ok ? (
        <p role="status" className="alert alert-success">
          {t(`session.life.done_${shown.intent}`)}
        </p>
      ) : null}
      {errors.length && !asking ? (
        <div role="alert" className="alert alert-error">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
      <Dialog open={asking} onClose={() => setAsking(false)} title={t('session.life.rerecord_title')} labelledBy="rerecord-title" busy={busy}>
        <Form method="post" className="form" noValidate>
          <p className="dialog-message">{t('session.life.rerecord_warning')}</p>
          <div className="field">
            <label htmlFor="rerecord-justification">{t('session.life.justification')}</label>
            <textarea
              id="rerecord-justification"
              name="justification"
              className="input"
              rows={4}
              maxLength={SESSION_JUSTIFICATION_MAX}
              aria-required
              aria-invalid={errors.length ? true : undefined}
              aria-describedby={errors.length ? 'rerecord-error' : 'rerecord-hint'}
              ref={field}
            />
            <p className="hint" id="rerecord-hint">
              {t('session.life.justification_hint', { max: String(SESSION_JUSTIFICATION_MAX) })}
            </p>
            {errors.length ? (
              <p className="error" id="rerecord-error" role="alert">
                {errors.join(' ')}
              </p>
            ) : null}
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => setAsking(false)} disabled={busy}>
              {t('settings.cancel')}
            </button>
            <button className="btn btn-danger" name="intent" value="rerecord" disabled={busy}>
              {t('session.life.rerecord_confirm')}
            </button>
          </div>
        </Form>
      </Dialog>
    </section>
  )
}
