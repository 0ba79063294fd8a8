import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { KitForm, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { translatedErrors } from '~/lib/error-text'
import type { ErrorItem } from '#shared/schemas/error'
import { FEED_MEDIA_TYPES, FeedComposeInput, type FeedPage, type FeedPost, type FeedStatus } from '#shared/schemas/feed'
import { FeedPostView } from './feed-post'

type PanelData = { state: 'ok'; page: FeedPage; canEdit: boolean } | { state: 'forbidden' } | { state: 'disabled' }
type ActionData = { ok: boolean; intent?: string; errors: ErrorItem[] }

/**
 * The room screen's feed panel (issue 13): the room's posts, pinned first, by pages; with `sns_feed_edit` a compose
 * form (message and media) and pin, unpin, approve and delete on each post; in a moderated realm a second tab lists
 * the posts held for approval. Data and actions go through the resource route `/feed/room/{roomId}`; without
 * `sns_feed_list` or `sns_feed_edit` nothing is shown.
 */
export function RoomFeedPanel({ roomId, timeZone }: { roomId: string; timeZone: string }) {
  const { t } = useTranslation()
  const toast = useToast()
  const [status, setStatus] = useState<FeedStatus>('published')
  const base = `/feed/room/${encodeURIComponent(roomId)}`
  const list = useFetcher<PanelData>({ key: `feed-${roomId}` })
  const more = useFetcher<PanelData>()
  const [older, setOlder] = useState<FeedPost[]>([])
  const [next, setNext] = useState<string | null>(null)
  const compose = useFetcher({ key: `feed-compose-${roomId}` })
  const [composeKey, setComposeKey] = useState(0)
  // A post answered: toast once, start a new empty form (its answer is not handed to the new form) and reload.
  const handled = useRef<unknown>(null)
  const posted = compose.state === 'idle' && isSuccess(compose.data) && compose.data !== handled.current
  useEffect(() => {
    if (!posted) return
    handled.current = compose.data
    toast.push({ kind: 'success', message: 'feed.posted' })
    setComposeKey((k) => k + 1)
    if (status === 'published') load()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [posted])

  const [tried, setTried] = useState(false)
  const load = () => {
    setTried(true)
    list.load(`${base}?status=${status}`)
  }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- loads when the room or the tab changes
  useEffect(load, [base, status])

  const data = list.data
  const page = data?.state === 'ok' ? data.page : null
  useEffect(() => {
    setOlder([])
    setNext(page?.next ?? null)
  }, [page])
  useEffect(() => {
    if (more.state !== 'idle' || more.data?.state !== 'ok') return
    const got = more.data.page
    setOlder((o) => [...o, ...got.items.filter((p) => !o.some((x) => x.id === p.id))])
    setNext(got.next)
  }, [more.state, more.data])

  if (data?.state === 'forbidden') return null
  // A load that answered nothing usable (the network failed): the error state with a retry.
  const failed = tried && list.state === 'idle' && !data
  return (
    <section className="card feed-panel" aria-labelledby="feed-panel-title" aria-busy={list.state !== 'idle'}>
      <h2 id="feed-panel-title">{t('feed.title')}</h2>
      {data?.state === 'disabled' ? (
        <p className="hint" role="status">
          {t('feed.error.disabled')} {t('feed.disabled_hint')}
        </p>
      ) : !data ? (
        failed ? (
          <div role="alert">
            <p>{t('feed.load_error')}</p>
            <button type="button" className="btn" onClick={load}>
              <Icon name="refresh" /> {t('feed.retry')}
            </button>
          </div>
        ) : (
          <p className="hint" role="status">
            <span className="spinner" aria-hidden="true" /> {t('feed.loading')}
          </p>
        )
      ) : (
        <>
          <p className="hint">
            {page?.moderated ? `${t('feed.moderated')} ` : ''}
            {t('feed.max_pinned', { count: page?.max_pinned ?? 0 })}
          </p>
          {data.state === 'ok' && data.canEdit ? (
            <KitForm
              key={composeKey}
              id={`feed-compose-${roomId}`}
              schema={FeedComposeInput}
              fetcher={compose as never}
              lastResult={compose.data === handled.current ? undefined : compose.data}
              action={`${base}?intent=post`}
              defaultValue={{ message: '', media_type: 'none', media_url: '' }}
              timeZone={timeZone}
              className="feed-compose"
              aria-label={t('feed.new')}
              submitLabel={t('feed.publish')}
              submitIcon="send"
              labels={{ message: t('feed.message'), media_type: t('feed.media_type'), media_url: t('feed.media_url') }}
            >
              <TextArea name="message" label={t('feed.message')} rows={3} />
              <div className="row">
                <SelectInput
                  name="media_type"
                  label={t('feed.media_type')}
                  options={FEED_MEDIA_TYPES.map((m) => ({ value: m, label: t(`feed.media.${m}`) }))}
                />
                <TextInput name="media_url" label={t('feed.media_url')} type="url" autoComplete="off" />
              </div>
            </KitForm>
          ) : null}
          {page?.moderated ? (
            <div className="tabs" role="tablist" aria-label={t('feed.title')}>
              {(['published', 'pending'] as const).map((s) => (
                <button key={s} type="button" role="tab" className="tab" aria-selected={status === s} onClick={() => setStatus(s)}>
                  {t(`feed.tab.${s}`)}
                </button>
              ))}
            </div>
          ) : null}
          <Posts
            posts={[...(page?.pinned ?? []), ...(page?.items ?? []), ...older]}
            empty={t(status === 'pending' ? 'feed.empty_pending' : 'feed.empty')}
            canEdit={data.state === 'ok' && data.canEdit}
            base={base}
            timeZone={timeZone}
            onDone={(intent) => {
              toast.push({ kind: 'success', message: `feed.done.${intent}` })
            }}
            onFailed={(errors) => toast.pushErrors(translatedErrors(t, errors), { title: 'feed.failed' })}
          />
          {next ? (
            <button type="button" className="btn" disabled={more.state !== 'idle'} onClick={() => more.load(`${base}?status=${status}&after=${next}`)}>
              {t('feed.more')}
            </button>
          ) : null}
        </>
      )}
    </section>
  )
}

const isSuccess = (d: unknown) => typeof d === 'object' && d !== null && (d as { status?: string }).status === 'success'

function Posts({
  posts,
  empty,
  canEdit,
  base,
  timeZone,
  onDone,
  onFailed,
}: {
  posts: FeedPost[]
  empty: string
  canEdit: boolean
  base: string
  timeZone: string
  onDone: (intent: string) => void
  onFailed: (errors: ErrorItem[]) => void
}) {
  if (!posts.length) return <p className="hint">{empty}</p>
  return (
    <ul className="feed-list">
      {posts.map((p) => (
        <FeedPostView
          key={p.id}
          post={p}
          timeZone={timeZone}
          actions={canEdit ? <PostActions post={p} base={base} onDone={onDone} onFailed={onFailed} /> : null}
        />
      ))}
    </ul>
  )
}

function PostActions({
  post,
  base,
  onDone,
  onFailed,
}: {
  post: FeedPost
  base: string
  onDone: (intent: string) => void
  onFailed: (errors: ErrorItem[]) => void
}) {
  const { t } = useTranslation()
  const fetcher = useFetcher<ActionData>()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok && fetcher.data.intent) onDone(fetcher.data.intent)
    else if (!fetcher.data.ok) onFailed(fetcher.data.errors)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [fetcher.state, fetcher.data])
  const button = (intent: string, icon: 'pin' | 'check' | 'trash', danger = false) => (
    <fetcher.Form
      method="post"
      action={`${base}?intent=${intent}`}
      onSubmit={(e) => {
        if (intent === 'delete' && !window.confirm(t('feed.delete_confirm'))) e.preventDefault()
      }}
    >
      <input type="hidden" name="id" value={post.id} />
      <button type="submit" className={danger ? 'btn btn-danger' : 'btn'} disabled={fetcher.state !== 'idle'}>
        <Icon name={icon} /> {t(`feed.${intent}`)}
      </button>
    </fetcher.Form>
  )
  return (
    <>
      {post.status === 'pending' ? button('approve', 'check') : post.pinned ? button('unpin', 'pin') : button('pin', 'pin')}
      {button('delete', 'trash', true)}
    </>
  )
}
