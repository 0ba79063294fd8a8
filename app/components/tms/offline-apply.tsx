import { useEffect, useState, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { formAnswers } from '~/lib/answer-form'
import { errorText } from '~/lib/error-text'
import { dateTimeFormat } from '~/lib/format'
import { downloadTask, removeDownload } from '~/lib/offline/download'
import { OFFLINE_EVENT, OfflineStorageError, getTask, offlineScope, recordKey, updateTask, type OfflineTask, type OpenedTask } from '~/lib/offline/store'
import { queueDelivery, useOfflineSync, useOnline } from '~/lib/offline/sync'
import { withQuery } from '~/lib/mobile-query'

/** The storage refusals in the student's words (seed 001 §8). */
export function storageErrorKey(err: unknown): string {
  if (err instanceof OfflineStorageError) return `mobile.tms.offline.error.${err.cause}`
  return 'mobile.tms.offline.error.download'
}

/** Whether this document is the downloaded copy the service worker answered with (public/sw.js marks it). */
const isOfflineCopy = () => typeof document !== 'undefined' && document.documentElement.hasAttribute('data-offline-copy')

type Input = { query: string; nick: string; taskId: string; opened: OpenedTask | null; measuredOffsetMs: number; form: RefObject<HTMLFormElement> }

/**
 * The offline side of the apply screen (issue 17): the task's record on this device, the answers kept there on every
 * change of a downloaded task, the clock offset of the download when the page is the downloaded copy, and the
 * delivery queued without network. `changes` is the screen's change counter (the answers are read after each render
 * it causes, so the widgets' hidden fields are up to date).
 */
export function useOfflineApply({ query, nick, taskId, opened, measuredOffsetMs, form }: Input, changes: number) {
  const scope = nick ? offlineScope(query, nick) : null
  const key = scope ? recordKey(scope, taskId) : ''
  const [record, setRecord] = useState<OfflineTask | null | undefined>(undefined)
  // Read once: the answers the form starts from (the device's, when it has some, are the latest).
  const [restored, setRestored] = useState<OfflineTask['answers'] | null>(null)
  const [copy] = useState(isOfflineCopy)
  const [saveError, setSaveError] = useState<string | null>(null)
  const online = useOnline()
  useOfflineSync(scope, query)

  useEffect(() => {
    if (!key) return
    let live = true
    const read = (first: boolean) =>
      void getTask(key)
        .then((found) => {
          if (!live) return
          setRecord(found ?? null)
          if (first && found?.answers && Object.keys(found.answers).length) setRestored(found.answers)
        })
        .catch(() => live && setRecord(null))
    read(true)
    const again = () => read(false)
    window.addEventListener(OFFLINE_EVENT, again)
    return () => {
      live = false
      window.removeEventListener(OFFLINE_EVENT, again)
    }
  }, [key])

  // A downloaded task keeps its answers on the device after every change (they survive a reload or a closed tab).
  useEffect(() => {
    if (!changes || !record || record.pending || !form.current) return
    const answers = formAnswers(new FormData(form.current))
    updateTask(key, (r) => ({ ...r, answers, answers_at: new Date().toISOString() }))
      .then(() => setSaveError(null))
      .catch((err) => {
        console.warn('offline answers', err)
        setSaveError(storageErrorKey(err))
      })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per change of the form
  }, [changes])

  return {
    scope,
    query,
    key,
    record,
    online,
    /** The downloaded copy counts the time with the offset measured at the download (its server_time is old). */
    offsetMs: copy && record ? record.offset_ms : measuredOffsetMs,
    restored,
    /** Why the last change could not be kept on the device (a catalogue key), or null. */
    saveError,
    /** A delivery waits on this device (or was synchronised): the form is locked. */
    queued: Boolean(record?.pending),
    /**
     * Without network: a downloaded task's delivery is queued (true); otherwise `needOnline` says why it cannot be
     * sent (true too). With network: false, the screen delivers as usual.
     */
    async deliverOffline(data: FormData, needOnline: () => void): Promise<boolean> {
      if (navigator.onLine) return false
      if (!record || !opened) {
        needOnline()
        return true
      }
      await queueDelivery(key, formAnswers(data))
      return true
    },
  }
}

type Offline = ReturnType<typeof useOfflineApply>

/**
 * The download panel of the apply screen: "Download for offline use" (the task, its pages and media stored on the
 * device), the stored state, "Remove download", the queued delivery's state (waiting, synchronised, or the server's
 * refusal in words) and the storage errors.
 */
export function OfflineApplyPanel({
  offline,
  page,
  list,
  opened,
  timeZone,
}: {
  offline: Offline
  page: string
  list: string
  opened: OpenedTask
  timeZone: string
}) {
  const { t, i18n } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { record, online, scope } = offline
  if (!scope || record === undefined) return null
  const when = (iso: string) => dateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(iso))
  const download = async () => {
    setBusy(true)
    setError(null)
    try {
      await downloadTask({ scope, page, list, opened, offsetMs: offline.offsetMs })
    } catch (err) {
      console.warn('download', err)
      setError(t(storageErrorKey(err)))
    } finally {
      setBusy(false)
    }
  }
  const remove = async () => {
    setBusy(true)
    try {
      await removeDownload(offline.key)
    } finally {
      setBusy(false)
    }
  }
  const pending = record?.pending
  const canDownload = !record && online
  // A delivery waiting for the network is not removed (it would be lost); once sent or refused it may be.
  const canRemove = Boolean(record && (!pending || record.synced_at || pending.errors))
  return (
    <section
      className="card mtms-offline"
      aria-labelledby="mtms-offline-title"
      data-offline={record ? (record.synced_at ? 'synced' : pending ? 'queued' : 'downloaded') : 'none'}
    >
      <h2 id="mtms-offline-title" className="mtms-offline-title">
        <Icon name={online ? 'download' : 'signal'} /> {t(online ? 'mobile.tms.offline.title' : 'mobile.tms.offline.you_are_offline')}
      </h2>
      <p role="status">
        {record
          ? record.synced_at
            ? t('mobile.tms.offline.synced', { date: when(record.synced_at) })
            : pending
              ? t(pending.errors ? 'mobile.tms.offline.refused' : 'mobile.tms.offline.queued', { date: when(pending.queued_at) })
              : t('mobile.tms.offline.downloaded', { date: when(record.downloaded_at) })
          : t(online ? 'mobile.tms.offline.hint' : 'mobile.tms.offline.not_downloaded')}
      </p>
      {pending?.errors ? (
        <ul className="error" role="alert">
          {pending.errors.map((e, i) => (
            <li key={i}>{errorText(t, e)}</li>
          ))}
        </ul>
      ) : null}
      {error || offline.saveError ? (
        <p className="error" role="alert">
          {error ?? t(offline.saveError!)}
        </p>
      ) : null}
      {canDownload || canRemove || record?.synced_at ? (
        <div className="form-actions">
          {canDownload ? (
            <button type="button" className="btn" onClick={download} disabled={busy} aria-busy={busy}>
              <Icon name="download" /> {t(busy ? 'mobile.tms.offline.downloading' : 'mobile.tms.offline.download')}
            </button>
          ) : null}
          {canRemove ? (
            <button type="button" className="btn" onClick={remove} disabled={busy}>
              <Icon name="trash" /> {t('mobile.tms.offline.remove')}
            </button>
          ) : null}
          {record?.synced_at ? (
            <a className="btn" href={withQuery('/mobile/tms', offline.query, 'tab=delivered')}>
              {t('mobile.tms.offline.see_delivered')}
            </a>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
